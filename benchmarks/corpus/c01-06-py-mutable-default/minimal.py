from collections import Counter


def confusion(rows, counts=Counter()):
    for truth, pred in rows:
        counts[(truth, pred)] += 1
    return counts


def check_shard(name, rows, counts):
    total = sum(counts.values())
    if total != len(rows):
        raise ValueError(f"shard {name}: confusion counts {total} rows, shard has {len(rows)}")


confusion([("cat", "cat")])
check_shard("shard-1", [("dog", "dog")], confusion([("dog", "dog")]))
