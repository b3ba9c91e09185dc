"""Start the feature server, wait until its cache is warm, then answer a few lookups."""

import argparse
import logging
import threading
import time

log = logging.getLogger("features")

SOURCES = {
    "user_age": {"u1": 34, "u2": 27, "u3": 51},
    "user_country": {"u1": "DE", "u2": "BR", "u3": "JP"},
    "item_price": {"i1": 9.99, "i2": 24.5},
}
INLINE_LIMIT = 5  # this many sources or fewer load inline, no loader thread needed


class FeatureServer:
    def __init__(self, sources):
        self.sources = sources
        self.cache = {}
        self._cond = threading.Condition()
        self._ready = False
        self.started_at = None

    def _load(self):
        for name, table in self.sources.items():
            for key, value in table.items():
                self.cache[(name, key)] = value
        with self._cond:
            self._ready = True
            self._cond.notify_all()
        log.info("cache warm: %d entries", len(self.cache))

    def start(self):
        self.started_at = time.monotonic()
        if len(self.sources) <= INLINE_LIMIT:
            self._load()
        else:
            threading.Thread(target=self._load, name="loader", daemon=True).start()

    def wait_ready(self):
        with self._cond:
            self._cond.wait()
        log.info("ready after %.3f s", time.monotonic() - self.started_at)

    def lookup(self, feature, key, default=None):
        return self.cache.get((feature, key), default)


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--user", default="u2")
    args = parser.parse_args()
    logging.basicConfig(level=logging.INFO, format="%(name)s: %(message)s")

    server = FeatureServer(SOURCES)
    server.start()
    server.wait_ready()
    for feature in ("user_age", "user_country"):
        print(f"{feature}[{args.user}] = {server.lookup(feature, args.user)}")


if __name__ == "__main__":
    main()
