"""Ingest a batch of log records while a monitor process samples the throughput."""
import hashlib
import multiprocessing as mp
import threading
import time

SAMPLE_EVERY = 0.05  # seconds
RECORDS = 4000


def monitor(progress, stop, results):
    """Runs in its own process: sample the shared counter until told to stop."""
    samples, last = [], 0
    while not stop.is_set():
        now = progress.value
        samples.append(now - last)
        last = now
        stop.wait(SAMPLE_EVERY)
    results.put({"samples": len(samples), "peak_per_tick": max(samples, default=0)})


def parse(line):
    level, _, message = line.partition(" ")
    return {"level": level, "digest": hashlib.sha1(message.encode()).hexdigest()[:12]}


def ingest(lines, progress):
    by_level = {}
    for line in lines:
        record = parse(line)
        by_level[record["level"]] = by_level.get(record["level"], 0) + 1
        with progress.get_lock():
            progress.value += 1
    return by_level


def main():
    lines = [f"{('INFO', 'WARN', 'ERROR')[i % 7 % 3]} request {i} served in {i % 13} ms" for i in range(RECORDS)]
    progress = mp.Value("i", 0)
    stop = threading.Event()
    results = mp.Queue()
    sampler = mp.Process(target=monitor, args=(progress, stop, results), name="monitor")
    sampler.start()

    start = time.perf_counter()
    counts = ingest(lines, progress)
    print(f"ingested {progress.value} records in {time.perf_counter() - start:.2f} s: {counts}")

    stop.set()
    sampler.join()
    print("monitor:", results.get(timeout=1))


if __name__ == "__main__":
    main()
