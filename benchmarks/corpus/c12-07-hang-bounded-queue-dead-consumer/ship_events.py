"""Ship the day's audit events to the warehouse: parse in the main thread, upload in batches from a writer thread."""
import argparse
import json
import logging
import queue
import threading
import time

log = logging.getLogger("ship_events")

DONE = object()


def read_events(n=60):
    """Stand-in for tailing the audit log: one JSON line per event; one line from an old agent lacks "actor"."""
    for i in range(n):
        event = {"id": i, "actor": f"user{i % 7}", "action": "login" if i % 3 else "export", "ts": 1772400000 + i}
        if i == 5:
            del event["actor"]
        yield json.dumps(event)


class Uploader:
    """Batches rows and 'uploads' them (the real one POSTs to the warehouse's bulk endpoint)."""

    def __init__(self, batch_size=10):
        self.batch_size = batch_size
        self.pending, self.sent = [], 0

    def add(self, row):
        self.pending.append(row)
        if len(self.pending) >= self.batch_size:
            self.flush()

    def flush(self):
        if self.pending:
            time.sleep(0.01)  # the request
            self.sent += len(self.pending)
            self.pending = []


def to_row(event):
    return (event["id"], event["actor"].lower(), event["action"], event["ts"])


def writer(q, uploader):
    while True:
        item = q.get()
        if item is DONE:
            break
        uploader.add(to_row(item))
    uploader.flush()


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--events", type=int, default=60)
    parser.add_argument("--buffer", type=int, default=8, help="events buffered between parser and writer")
    args = parser.parse_args()
    logging.basicConfig(level=logging.INFO, format="%(threadName)s %(message)s")
    q = queue.Queue(maxsize=args.buffer)
    uploader = Uploader()
    t = threading.Thread(target=writer, args=(q, uploader), name="writer")
    t.start()
    for line in read_events(args.events):
        q.put(json.loads(line))
    q.put(DONE)
    t.join()
    log.info("shipped %d events", uploader.sent)


if __name__ == "__main__":
    main()
