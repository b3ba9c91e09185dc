"""Threaded preprocessing pipeline feeding a small torch model with sensor windows.

A reader thread synthesizes raw sensor records and shards them round-robin over
several preprocessing workers (z-score normalisation + simple features).  Workers
push processed samples to a shared output queue and a DONE marker when their shard is
exhausted; the main thread collates samples into batches and trains a tiny
regression model until every worker has reported DONE.

Usage:
    python sensor_pipeline.py [--records N] [--workers W] [--batch B]
"""

import argparse
import math
import queue
import random
import statistics
import threading

import torch
import torch.nn as nn

WINDOW = 32
SEED = 7
DONE = object()
STOP = object()


def synthesize_record(idx: int, rng: random.Random) -> dict:
    """One window of a noisy sinusoid; the target is its dominant amplitude."""
    amplitude = rng.uniform(0.5, 3.0)
    freq = rng.uniform(0.05, 0.3)
    values = [amplitude * math.sin(2 * math.pi * freq * t) + rng.gauss(0, 0.1) for t in range(WINDOW)]
    if idx == 517:
        # a stuck sensor reports the same reading for the whole window
        values = [values[0]] * WINDOW
    return {"id": idx, "sensor": f"s{idx % 13:02d}", "values": values, "target": amplitude}


def reader(num_records: int, shards: list) -> None:
    rng = random.Random(SEED)
    for idx in range(num_records):
        shards[idx % len(shards)].put(synthesize_record(idx, rng))
    for shard in shards:
        shard.put(STOP)


def preprocess(record: dict) -> tuple:
    values = record["values"]
    mean = statistics.fmean(values)
    std = statistics.pstdev(values)
    normalized = [(v - mean) / std for v in values]
    features = normalized + [mean, std, max(values) - min(values)]
    return features, record["target"]


def worker(shard: queue.Queue, out: queue.Queue) -> None:
    while True:
        record = shard.get()
        if record is STOP:
            break
        out.put(preprocess(record))
    out.put(DONE)


class Regressor(nn.Module):
    def __init__(self, in_features: int, hidden: int = 64):
        super().__init__()
        self.net = nn.Sequential(
            nn.Linear(in_features, hidden),
            nn.ReLU(),
            nn.Linear(hidden, hidden),
            nn.ReLU(),
            nn.Linear(hidden, 1),
        )

    def forward(self, x):
        return self.net(x).squeeze(-1)


def collate(samples: list) -> tuple:
    features = torch.tensor([s[0] for s in samples], dtype=torch.float32)
    targets = torch.tensor([s[1] for s in samples], dtype=torch.float32)
    return features, targets


def train_step(model, optimizer, batch) -> float:
    features, targets = batch
    loss = nn.functional.mse_loss(model(features), targets)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    return loss.item()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--records", type=int, default=2000)
    parser.add_argument("--workers", type=int, default=4)
    parser.add_argument("--batch", type=int, default=64)
    args = parser.parse_args()

    torch.manual_seed(SEED)
    shards = [queue.Queue(maxsize=128) for _ in range(args.workers)]
    out = queue.Queue(maxsize=256)
    threads = [threading.Thread(target=reader, args=(args.records, shards), name="reader")]
    threads += [
        threading.Thread(target=worker, args=(shard, out), name=f"prep-{i}") for i, shard in enumerate(shards)
    ]
    for t in threads:
        t.start()
    print(f"[main] started reader + {args.workers} workers for {args.records} records")

    model = Regressor(WINDOW + 3)
    optimizer = torch.optim.SGD(model.parameters(), lr=1e-2, momentum=0.9)
    pending, seen, steps, finished = [], 0, 0, 0
    while finished < args.workers:
        item = out.get()
        if item is DONE:
            finished += 1
            continue
        pending.append(item)
        seen += 1
        if len(pending) == args.batch:
            train_step(model, optimizer, collate(pending))
            pending, steps = [], steps + 1
        if seen % 500 == 0:
            print(f"[main] {seen} samples, {steps} steps")
    if pending:
        train_step(model, optimizer, collate(pending))
    for t in threads:
        t.join()
    print(f"[main] done: {seen} samples, {steps} steps")


if __name__ == "__main__":
    main()
