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

HOPPER = """
    import os, time
    r, w = os.pipe()
    pid = os.fork()
    if pid == 0:
        os.close(r)
        os.setsid()
        for _ in range(300):
            if os.fork():
                os._exit(0)  # the parent exits, its child goes on: an orphan each time
        os.write(w, b"x")
        os._exit(0)
    os.close(w)
    os.waitpid(pid, 0)
    os.read(r, 1)  # the last hop is done
    time.sleep(0.3)
    zombies = 0
    for tid in os.listdir("/proc/self/task"):
        with open(f"/proc/self/task/{tid}/children") as fh:
            kids = fh.read().split()
        for kid in kids:
            try:
                with open(f"/proc/{kid}/stat") as fh:
                    zombies += fh.read().rsplit(")", 1)[1].split()[0] == "Z"
            except OSError:
                pass
    raise RuntimeError(f"zombies: {zombies}")
"""


def zombies_left(result) -> int:
    assert result.exception is not None and result.exception.type == "RuntimeError", result.stderr
    return int(result.exception.message.split(": ")[1])
