"""Check that every package mirror serves the current index, at most MAX_IN_FLIGHT requests at a time."""
import argparse
import hashlib
import logging
import threading
from concurrent.futures import ThreadPoolExecutor
from urllib.parse import urlparse

log = logging.getLogger("mirrors")

MAX_IN_FLIGHT = 2  # the corporate proxy resets us above this
MIRRORS = [
    "https://mirror.example.org/pypi/",
    "http://legacy.example.net/pypi/",
    "https://eu.mirror.example.com/simple/",
    "ftp://archive.example.edu/pypi/",
    "https://ap.mirror.example.com/simple/",
    "https://us.mirror.example.com/simple/",
]
CURRENT = b"index v2026.11.27"


def fetch_index(url):
    """Stand-in for the HTTP GET of <mirror>/index (the dry run does not touch the network)."""
    return hashlib.sha256(CURRENT).hexdigest()


class MirrorChecker:
    def __init__(self, workers, max_in_flight=MAX_IN_FLIGHT):
        self.pool = ThreadPoolExecutor(max_workers=workers, thread_name_prefix="fetch")
        self.slots = threading.BoundedSemaphore(max_in_flight)
        self.expected = hashlib.sha256(CURRENT).hexdigest()

    def schedule(self, url):
        """Start checking ``url``; blocks while MAX_IN_FLIGHT checks are running."""
        self.slots.acquire()
        parsed = urlparse(url)
        if parsed.scheme != "https":
            log.warning("%s: skipped, %s is not allowed through the proxy", url, parsed.scheme)
            return None
        future = self.pool.submit(fetch_index, url)
        future.add_done_callback(lambda _: self.slots.release())
        return future

    def check_all(self, urls):
        futures = {url: self.schedule(url) for url in dict.fromkeys(urls)}
        results = {}
        for url, future in futures.items():
            results[url] = "skipped" if future is None else "ok" if future.result() == self.expected else "stale"
        self.pool.shutdown()
        return results


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--workers", type=int, default=4)
    args = parser.parse_args()
    logging.basicConfig(level=logging.INFO, format="%(threadName)s %(message)s")
    results = MirrorChecker(args.workers).check_all(MIRRORS)
    for url, status in results.items():
        print(f"{status:>8}  {url}")
    log.info("%d of %d mirrors current", sum(s == "ok" for s in results.values()), len(results))


if __name__ == "__main__":
    main()
