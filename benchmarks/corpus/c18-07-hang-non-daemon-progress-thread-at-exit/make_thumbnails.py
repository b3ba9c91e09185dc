"""Build thumbnails (box-filtered grey images) for a batch of synthetic photos, with a progress reporter.

    python make_thumbnails.py --photos 24 --size 64 --thumb 8
"""

import argparse
import hashlib
import logging
import random
import threading
import time

log = logging.getLogger("make_thumbnails")


class ProgressReporter:
    """Logs how many photos are done every `interval` seconds while the batch runs."""

    def __init__(self, total, interval=0.5):
        self.total = total
        self.interval = interval
        self.done = 0
        self.lock = threading.Lock()
        self.thread = threading.Thread(target=self.run, name="progress")

    def advance(self):
        with self.lock:
            self.done += 1

    def run(self):
        while True:
            time.sleep(self.interval)
            with self.lock:
                done = self.done
            log.info("thumbnails: %d/%d", done, self.total)

    def start(self):
        self.thread.start()
        return self


def synthetic_photo(seed, size):
    rng = random.Random(seed)
    cx, cy = rng.uniform(0, size), rng.uniform(0, size)
    return [[int(255 * (1 - min(1.0, ((x - cx) ** 2 + (y - cy) ** 2) ** 0.5 / size)))
             for x in range(size)] for y in range(size)]


def thumbnail(pixels, thumb):
    step = len(pixels) // thumb
    return [[sum(pixels[y * step + dy][x * step + dx] for dy in range(step) for dx in range(step)) // step ** 2
             for x in range(thumb)] for y in range(thumb)]


def digest(thumb):
    return hashlib.sha1(bytes(v for row in thumb for v in row)).hexdigest()[:10]


def main():
    logging.basicConfig(level=logging.INFO, format="%(levelname)s %(threadName)s: %(message)s")
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("--photos", type=int, default=24)
    p.add_argument("--size", type=int, default=64)
    p.add_argument("--thumb", type=int, default=8)
    args = p.parse_args()
    progress = ProgressReporter(args.photos).start()
    index = {}
    for i in range(args.photos):
        thumb = thumbnail(synthetic_photo(i, args.size), args.thumb)
        index[f"photo_{i:03d}.png"] = digest(thumb)
        progress.advance()
    for name in sorted(index)[:3]:
        print(name, index[name])
    log.info("%d thumbnails written", len(index))


if __name__ == "__main__":
    main()
