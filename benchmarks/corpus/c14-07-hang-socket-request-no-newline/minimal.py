import json
import socket
import socketserver
import threading


class Handler(socketserver.StreamRequestHandler):
    def handle(self):
        for raw in self.rfile:
            self.wfile.write(raw)


server = socketserver.TCPServer(("127.0.0.1", 0), Handler)
threading.Thread(target=server.serve_forever, daemon=True).start()
sock = socket.create_connection(server.server_address)


def request(op, **params):
    sock.sendall(json.dumps({"op": op, **params}).encode())
    return sock.recv(4096)


request("stock", sku="sku-10443")
