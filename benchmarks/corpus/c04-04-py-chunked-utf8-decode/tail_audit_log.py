"""Read an audit-log stream in fixed-size chunks and count the events per user."""

import argparse
import io
import json
import logging
from collections import Counter

log = logging.getLogger("audit")

EVENTS = [
    {"user": "ana", "action": "login", "ip": "10.0.7"},
    {"user": "joão", "action": "upload", "file": "relatório-final.pdf"},
    {"user": "søren", "action": "login", "ip": "10.0.0.9"},
    {"user": "amelie", "action": "delete", "file": "brouillon.txt"},
    {"user": "zoë", "action": "logout"},
]


def make_stream(events):
    data = "".join(json.dumps(e, ensure_ascii=False) + "\n" for e in events)
    return io.BytesIO(data.encode("utf-8"))


class LineReader:
    """Yields complete lines from a byte stream that arrives in chunks."""

    def __init__(self, stream, chunk_size=64, encoding="utf-8"):
        self.stream = stream
        self.chunk_size = chunk_size
        self.encoding = encoding
        self.buffer = ""

    def lines(self):
        while True:
            data = self.stream.read(self.chunk_size)
            if not data:
                break
            self.buffer += data.decode(self.encoding)
            *complete, self.buffer = self.buffer.split("\n")
            yield from complete
        if self.buffer:
            yield self.buffer


def count_actions(reader):
    per_user = Counter()
    for line in reader.lines():
        event = json.loads(line)
        per_user[event["user"]] += 1
        log.debug("%s %s", event["user"], event["action"])
    return per_user


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--chunk-size", type=int, default=64)
    parser.add_argument("--verbose", action="store_true")
    args = parser.parse_args()
    logging.basicConfig(level=logging.DEBUG if args.verbose else logging.INFO)

    reader = LineReader(make_stream(EVENTS), chunk_size=args.chunk_size)
    per_user = count_actions(reader)
    for user, n in per_user.most_common():
        print(f"{user:8s} {n}")


if __name__ == "__main__":
    main()
