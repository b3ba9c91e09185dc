"""Mirror a folder of generated reports to the archive store, four uploads at a time.

    python mirror_uploads.py [--workers 4] [--heartbeat 0.5]

A heartbeat task logs progress while the uploads run, so long mirrors show they are alive.
"""

import argparse
import hashlib
import logging
import shutil
import tempfile
import threading
import time
from concurrent.futures import ThreadPoolExecutor, as_completed
from pathlib import Path

log = logging.getLogger("mirror")


class Progress:
    def __init__(self, total):
        self.total = total
        self.done = 0
        self.bytes = 0
        self._lock = threading.Lock()

    def add(self, size):
        with self._lock:
            self.done += 1
            self.bytes += size

    def line(self):
        with self._lock:
            return f"{self.done}/{self.total} files, {self.bytes / 1024:.1f} KiB"


def make_reports(folder, n):
    """Stand-in for the nightly report job: n small CSV files."""
    for i in range(n):
        rows = "\n".join(f"{i},{j},{(i * 31 + j * 7) % 97}" for j in range(200))
        (folder / f"report_{i:03d}.csv").write_text("batch,row,value\n" + rows + "\n")


def upload(src, store):
    """'Upload' one file: copy it into the store under its content hash, like the archive API does."""
    data = src.read_bytes()
    digest = hashlib.sha256(data).hexdigest()[:16]
    time.sleep(0.01)  # network latency
    dest = store / f"{digest}_{src.name}"
    shutil.copyfile(src, dest)
    return src.name, len(data), digest


def heartbeat(progress, stop, interval):
    while not stop.wait(interval):
        log.info("still mirroring: %s", progress.line())


def mirror(files, store, workers, interval):
    progress = Progress(len(files))
    stop = threading.Event()
    manifest = {}
    with ThreadPoolExecutor(max_workers=workers) as pool:
        pool.submit(heartbeat, progress, stop, interval)
        futures = [pool.submit(upload, f, store) for f in files]
        for fut in as_completed(futures):
            name, size, digest = fut.result()
            manifest[name] = digest
            progress.add(size)
    stop.set()
    log.info("mirrored %s", progress.line())
    return manifest


def main():
    logging.basicConfig(level=logging.INFO, format="%(levelname)s %(threadName)s %(message)s")
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("--workers", type=int, default=4)
    p.add_argument("--files", type=int, default=12)
    p.add_argument("--heartbeat", type=float, default=0.5)
    args = p.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        src, store = Path(tmp, "reports"), Path(tmp, "store")
        src.mkdir()
        store.mkdir()
        make_reports(src, args.files)
        manifest = mirror(sorted(src.glob("*.csv")), store, args.workers, args.heartbeat)
        (store / "MANIFEST").write_text("\n".join(f"{d}  {n}" for n, d in sorted(manifest.items())) + "\n")
        print(f"{len(manifest)} files mirrored")


if __name__ == "__main__":
    main()
