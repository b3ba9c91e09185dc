"""Ask the warehouse inventory service for stock levels (line-delimited JSON over TCP).

The smoke test runs against a local stub of the service; in production --host/--port name the real one.
"""
import argparse
import json
import logging
import socket
import socketserver
import threading

log = logging.getLogger("query_inventory")

STUB_STOCK = {
    "sku-10443": {"on_hand": 12, "reserved": 3, "bin": "A-04-2"},
    "sku-20917": {"on_hand": 0, "reserved": 0, "bin": "C-11-1"},
    "sku-31208": {"on_hand": 57, "reserved": 20, "bin": "B-02-5"},
}


class InventoryHandler(socketserver.StreamRequestHandler):
    """The service's protocol: one JSON request per line, one JSON reply per line."""

    def handle(self):
        for raw in self.rfile:
            req = json.loads(raw)
            if req.get("op") == "stock":
                item = STUB_STOCK.get(req["sku"])
                reply = {"ok": item is not None, "sku": req["sku"], **(item or {})}
            else:
                reply = {"ok": False, "error": f"unknown op {req.get('op')!r}"}
            self.wfile.write(json.dumps(reply).encode() + b"\n")


def start_stub():
    server = socketserver.ThreadingTCPServer(("127.0.0.1", 0), InventoryHandler)
    server.daemon_threads = True
    threading.Thread(target=server.serve_forever, name="inventory-stub", daemon=True).start()
    return server.server_address


class InventoryClient:
    def __init__(self, address, timeout=None):
        self.sock = socket.create_connection(address, timeout=timeout)
        self.buf = b""

    def request(self, op, **params):
        self.sock.sendall(json.dumps({"op": op, **params}).encode())
        while b"\n" not in self.buf:
            chunk = self.sock.recv(4096)
            if not chunk:
                raise ConnectionError("the inventory service closed the connection")
            self.buf += chunk
        line, _, self.buf = self.buf.partition(b"\n")
        return json.loads(line)

    def close(self):
        self.sock.close()


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("skus", nargs="*", default=["sku-10443", "sku-31208"])
    parser.add_argument("--host", help="the real service (default: start the local stub)")
    parser.add_argument("--port", type=int, default=7410)
    parser.add_argument("--timeout", type=float, default=None, help="socket timeout in seconds (default: none)")
    args = parser.parse_args()
    logging.basicConfig(level=logging.INFO, format="%(levelname)s %(message)s")
    address = (args.host, args.port) if args.host else start_stub()
    log.info("asking %s:%d for %d sku(s)", *address, len(args.skus))
    client = InventoryClient(address, timeout=args.timeout)
    try:
        for sku in args.skus:
            reply = client.request("stock", sku=sku)
            free = reply.get("on_hand", 0) - reply.get("reserved", 0)
            print(f"{sku}\t{free} free\t{reply.get('bin', '-')}" if reply["ok"] else f"{sku}\tunknown")
    finally:
        client.close()


if __name__ == "__main__":
    main()
