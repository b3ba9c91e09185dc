"""Small failing scripts shared by several test modules, and what a pass's candidate prints."""

import contextlib
import io


def output_of(source: str) -> str:
    """What ``source`` prints, run in this process (``exec``): a pass's candidate must print the same."""
    buf = io.StringIO()
    with contextlib.redirect_stdout(buf):
        exec(compile(source, "<case>", "exec"), {"__name__": "__main__"})
    return buf.getvalue()

# A JSON record pipeline whose third record is malformed (a trailing comma): JSONDecodeError.
JSON_PIPELINE = """
import json
import os
import sys

VERBOSE = False


def log(msg):
    if VERBOSE:
        print(msg)


def parse(lines):
    records = []
    for i, line in enumerate(lines):
        log(f"line {i}")
        records.append(json.loads(line))
    return records


def main():
    data = ['{"a": 1}', '{"b": 2}', '{"c": 3,}']
    parsed = parse(data)
    print(len(parsed), os.getcwd(), sys.argv)


if __name__ == "__main__":
    main()
"""


# The main thread blocks forever on an empty queue while a daemon thread keeps running.
HANG_WITH_SPINNER = """
import queue, threading, time

def spin():
    while True:
        time.sleep(0.05)

threading.Thread(target=spin, daemon=True, name="spinner").start()
print("waiting for a batch", flush=True)
queue.Queue().get()
"""
