"""Check the status pages of the shop's services and ship latency metrics in the background."""
import argparse
import logging
import threading
import time
from collections import defaultdict

log = logging.getLogger("crawl_status")

# stand-in for the HTTP checks: service -> (status, latency in ms) per round
RESPONSES = {
    "checkout": [(200, 41.0), (200, 38.5), (200, 44.2)],
    "search": [(200, 120.3), (503, 15.0), (200, 98.7)],
    "images": [(200, 12.9), (200, 13.4), (200, 12.1)],
}


class StdoutSink:
    def __init__(self):
        self.batches = 0

    def write(self, batch):
        self.batches += 1
        for name, values in sorted(batch.items()):
            log.info("metric %s n=%d mean=%.1f", name, len(values), sum(values) / len(values))


class MetricsBuffer:
    """Collects points from the checker and flushes them to the sink every `interval` seconds."""

    def __init__(self, sink, interval=0.2):
        self.sink = sink
        self.interval = interval
        self._lock = threading.Lock()
        self._points = defaultdict(list)
        self._closed = False
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="metrics-flusher", daemon=True)

    def start(self):
        self._thread.start()
        return self

    def add(self, name, value):
        with self._lock:
            if self._closed:
                raise RuntimeError("metrics buffer is closed")
            self._points[name].append(value)

    def flush(self):
        with self._lock:
            batch, self._points = self._points, defaultdict(list)
        if batch:
            self.sink.write(batch)

    def _run(self):
        while not self._stop.wait(self.interval):
            self.flush()
        self.flush()  # whatever came in since the last tick

    def close(self):
        with self._lock:
            self._closed = True
            self._stop.set()
            self._thread.join()


def check_round(i, metrics):
    down = []
    for service, answers in RESPONSES.items():
        status, latency = answers[i % len(answers)]
        metrics.add(f"{service}.latency_ms", latency)
        if status != 200:
            down.append(service)
    return down


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--pause", type=float, default=0.1, help="seconds between rounds")
    args = parser.parse_args()
    logging.basicConfig(level=logging.INFO, format="%(threadName)s %(message)s")
    metrics = MetricsBuffer(StdoutSink()).start()
    for i in range(args.rounds):
        down = check_round(i, metrics)
        log.info("round %d: %s", i, ", ".join(down) or "all up")
        time.sleep(args.pause)
    metrics.close()
    log.info("done")


if __name__ == "__main__":
    main()
