"""Resize a batch of product images on a small pool of worker threads."""
import argparse
import logging
import queue
import threading
from dataclasses import dataclass

log = logging.getLogger("resize_images")

STOP = None  # tells a worker there is no more work


@dataclass
class Job:
    name: str
    width: int
    height: int


def fit(width, height, max_side):
    """The size that fits in a max_side square, keeping the aspect ratio."""
    scale = min(1.0, max_side / max(width, height))
    return round(width * scale), round(height * scale)


def worker(jobs, results, max_side):
    while True:
        job = jobs.get()
        if job is STOP:
            log.info("%s: done", threading.current_thread().name)
            return
        results.append((job.name, fit(job.width, job.height, max_side)))


def run_pool(batch, n_workers, max_side):
    jobs, results = queue.Queue(), []
    workers = [threading.Thread(target=worker, args=(jobs, results, max_side), name=f"resizer-{i}")
               for i in range(n_workers)]
    for w in workers:
        w.start()
    for job in batch:
        jobs.put(job)
    jobs.put(STOP)  # end of the batch
    for w in workers:
        w.join()
    return results


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--workers", type=int, default=3)
    parser.add_argument("--max-side", type=int, default=512)
    args = parser.parse_args()
    logging.basicConfig(level=logging.INFO, format="%(message)s")
    batch = [Job(f"sku-{n:04d}.jpg", 800 + 37 * n, 600 + 11 * n) for n in range(10)]
    results = run_pool(batch, args.workers, args.max_side)
    for name, (w, h) in sorted(results):
        print(f"{name}: {w}x{h}")


if __name__ == "__main__":
    main()
