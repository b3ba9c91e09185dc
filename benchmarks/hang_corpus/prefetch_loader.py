"""A prefetching record loader: a thread pool decodes shards ahead of the consumer.

The consumer asks for batches in order; a prefetch thread keeps up to DEPTH decoded shards in a
bounded queue. Decoding a shard whose header is corrupt raises inside the prefetch thread, the
thread dies, and the consumer waits forever for the next shard.
"""

import hashlib
import json
import queue
import threading
import zlib

SHARDS = 12
RECORDS_PER_SHARD = 200
DEPTH = 3
_END = object()


def make_shard(index):
    records = [{"id": index * RECORDS_PER_SHARD + i, "value": (i * 7919) % 1000 / 10.0,
                "tag": f"s{index}-r{i}"} for i in range(RECORDS_PER_SHARD)]
    payload = zlib.compress(json.dumps(records).encode())
    header = {"index": index, "count": len(records), "sha": hashlib.sha256(payload).hexdigest()}
    if index == 7:
        header["count"] = "two hundred"  # a writer bug: a string where a number belongs
    return header, payload


def decode(shard):
    header, payload = shard
    if hashlib.sha256(payload).hexdigest() != header["sha"]:
        raise ValueError(f"shard {header['index']}: checksum mismatch")
    records = json.loads(zlib.decompress(payload))
    expected = int(header["count"])
    if len(records) != expected:
        raise ValueError(f"shard {header['index']}: {len(records)} records, header says {expected}")
    return records


class PrefetchLoader:
    def __init__(self, shards, depth=DEPTH):
        self.shards = shards
        self.ready = queue.Queue(maxsize=depth)
        self.thread = threading.Thread(target=self._prefetch, name="prefetch", daemon=False)
        self.thread.start()

    def _prefetch(self):
        for shard in self.shards:
            self.ready.put(decode(shard))
        self.ready.put(_END)

    def __iter__(self):
        while True:
            records = self.ready.get()
            if records is _END:
                return
            yield records


def summarize(batch):
    values = [r["value"] for r in batch]
    return {"n": len(values), "mean": sum(values) / len(values), "max": max(values)}


def main():
    shards = [make_shard(i) for i in range(SHARDS)]
    totals = {"records": 0, "batches": 0}
    for batch in PrefetchLoader(shards):
        stats = summarize(batch)
        totals["records"] += stats["n"]
        totals["batches"] += 1
        print(f"batch {totals['batches']}: {stats['n']} records, mean {stats['mean']:.2f}")
    print("loaded", totals)


if __name__ == "__main__":
    main()
