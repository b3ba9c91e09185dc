"""Make thumbnails of an image folder with a pool of worker threads fed by a queue."""
import hashlib
import queue
import threading
import time

N_WORKERS = 3


def fake_image(name):
    """Stand-in for reading the file: deterministic bytes, empty for the broken uploads."""
    if name.startswith("broken"):
        return b""
    return hashlib.sha256(name.encode()).digest() * 64


def thumbnail(data, size=32):
    step = max(1, len(data) // size)
    return bytes(data[i] for i in range(0, len(data), step))[:size]


class Thumbnailer:
    def __init__(self, n_workers):
        self.tasks = queue.Queue()
        self.results = {}
        self.skipped = []
        self.lock = threading.Lock()
        self.workers = [threading.Thread(target=self.work, daemon=True) for _ in range(n_workers)]

    def work(self):
        while True:
            name = self.tasks.get()
            data = fake_image(name)
            if not data:
                with self.lock:
                    self.skipped.append(name)
                continue
            thumb = thumbnail(data)
            time.sleep(0.001)
            with self.lock:
                self.results[name] = thumb
            self.tasks.task_done()

    def run(self, names):
        for w in self.workers:
            w.start()
        for name in names:
            self.tasks.put(name)
        self.tasks.join()
        return self.results


def main():
    names = [f"img_{i:03d}.png" for i in range(40)]
    names[17] = "broken_upload.png"
    start = time.perf_counter()
    results = Thumbnailer(N_WORKERS).run(names)
    print(f"{len(results)} thumbnails in {time.perf_counter() - start:.2f}s")


if __name__ == "__main__":
    main()
