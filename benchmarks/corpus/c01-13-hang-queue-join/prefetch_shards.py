"""Prefetch dataset shards with worker threads, skipping corrupt ones, then wait for all of them."""
import queue
import threading
import zlib

N_WORKERS = 3


def make_shards(n=12):
    shards = []
    for i in range(n):
        payload = zlib.compress((f"shard-{i}:" + "x" * (100 + i)).encode())
        if i % 5 == 4:
            payload = payload[:-3]  # truncated upload
        shards.append((i, payload))
    return shards


class Prefetcher:
    def __init__(self, shards):
        self.todo = queue.Queue()
        self.loaded = {}
        self.skipped = []
        self.lock = threading.Lock()
        for item in shards:
            self.todo.put(item)
        self.workers = [threading.Thread(target=self.work, name=f"prefetch-{i}", daemon=True)
                        for i in range(N_WORKERS)]

    def work(self):
        while True:
            index, payload = self.todo.get()
            try:
                data = zlib.decompress(payload)
            except zlib.error:
                with self.lock:
                    self.skipped.append(index)
                continue
            with self.lock:
                self.loaded[index] = len(data)
            self.todo.task_done()

    def run(self):
        for w in self.workers:
            w.start()
        self.todo.join()
        return self.loaded, self.skipped


def main():
    loaded, skipped = Prefetcher(make_shards()).run()
    print(f"loaded {len(loaded)} shards, skipped {skipped}")


if __name__ == "__main__":
    main()
