"""Evaluate predictions shard by shard and cross-check every shard's confusion counts."""
import random
from collections import Counter

LABELS = ("cat", "dog", "bird")


def make_shard(seed, size):
    rng = random.Random(seed)
    rows = []
    for _ in range(size):
        truth = rng.choice(LABELS)
        pred = truth if rng.random() < 0.7 else rng.choice(LABELS)
        rows.append((truth, pred))
    return rows


def confusion(rows, counts=Counter()):
    """Count (truth, prediction) pairs of one shard."""
    for truth, pred in rows:
        counts[(truth, pred)] += 1
    return counts


def accuracy(counts):
    total = sum(counts.values())
    hits = sum(v for (t, p), v in counts.items() if t == p)
    return hits / total if total else 0.0


def per_class_recall(counts):
    recall = {}
    for label in LABELS:
        row = {p: v for (t, p), v in counts.items() if t == label}
        total = sum(row.values())
        recall[label] = row.get(label, 0) / total if total else 0.0
    return recall


def check_shard(name, rows, counts):
    total = sum(counts.values())
    if total != len(rows):
        raise ValueError(f"shard {name}: confusion counts {total} rows, shard has {len(rows)}")


def main():
    shards = {f"shard-{i}": make_shard(seed=i, size=40 + 5 * i) for i in range(4)}
    for name, rows in shards.items():
        counts = confusion(rows)
        check_shard(name, rows, counts)
        recall = per_class_recall(counts)
        print(f"{name}: acc {accuracy(counts):.3f} "
              + " ".join(f"{k}={v:.2f}" for k, v in recall.items()))


if __name__ == "__main__":
    main()
