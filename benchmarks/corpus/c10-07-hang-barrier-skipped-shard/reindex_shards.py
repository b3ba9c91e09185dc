"""Rebuild the search index shard by shard, then swap all new shards in at once."""
import argparse
import logging
import threading
from dataclasses import dataclass, field

log = logging.getLogger("reindex")

# shard name -> documents to index (the archive shard was emptied by the retention job)
SHARDS = {
    "products-0": ["red kettle", "steel kettle", "tea cups"],
    "products-1": ["oak table", "desk lamp"],
    "archive": [],
    "products-2": ["garden hose", "watering can", "rake", "seed tray"],
}


@dataclass
class Shard:
    name: str
    docs: list
    index: dict = field(default_factory=dict)
    live: bool = False


def build(shard):
    for doc_id, text in enumerate(shard.docs):
        for word in text.split():
            shard.index.setdefault(word, []).append(doc_id)


def worker(shard, swap_barrier, lock, swapped):
    build(shard)
    log.info("%s: built %d term(s)", shard.name, len(shard.index))
    # no shard goes live before every shard is built: readers must never see a mix of old and new
    swap_barrier.wait()
    with lock:
        shard.live = True
        swapped.append(shard.name)


def reindex(shards):
    swap_barrier = threading.Barrier(len(shards))
    lock, swapped, threads = threading.Lock(), [], []
    for shard in shards:
        if not shard.docs:
            log.info("%s: empty, nothing to rebuild", shard.name)
            continue
        t = threading.Thread(target=worker, args=(shard, swap_barrier, lock, swapped), name=shard.name)
        t.start()
        threads.append(t)
    for t in threads:
        t.join()
    return swapped


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--only", nargs="*", default=None, help="rebuild only these shards")
    args = parser.parse_args()
    logging.basicConfig(level=logging.INFO, format="%(threadName)s %(message)s")
    names = args.only or list(SHARDS)
    swapped = reindex([Shard(name, SHARDS[name]) for name in names])
    print(f"swapped in {len(swapped)} shard(s): {', '.join(sorted(swapped))}")


if __name__ == "__main__":
    main()
