"""Build a word index over a folder of documents with a thread pool.

python build_index.py [--workers 2] [--chunk 40]
"""
import argparse
import logging
import re
from collections import Counter
from concurrent.futures import ThreadPoolExecutor, as_completed

log = logging.getLogger("index")

DOCS = {
    "intro.md": "Threads share memory. " * 30,
    "queues.md": "A queue hands work from producers to consumers. " * 25,
    "pools.md": "A pool runs tasks on a fixed number of worker threads. " * 20,
    "locks.md": "Locks protect shared state from concurrent updates. " * 22,
}
WORD = re.compile(r"[a-z]+")
CONFIG = {"workers": 2, "chunk_chars": 400, "min_len": 3}


class Indexer:
    def __init__(self, config):
        self.config = config
        self.pool = ThreadPoolExecutor(max_workers=config["workers"], thread_name_prefix="index")
        self.index = {}

    def tokenize(self, text):
        return Counter(w for w in WORD.findall(text.lower()) if len(w) >= self.config["min_len"])

    def chunks(self, text):
        size = self.config["chunk_chars"]
        return [text[i:i + size] for i in range(0, len(text), size)]

    def index_document(self, name, text):
        """Tokenize the document's chunks in parallel and merge the counts."""
        futures = [self.pool.submit(self.tokenize, chunk) for chunk in self.chunks(text)]
        total = Counter()
        for fut in futures:
            total.update(fut.result())
        return name, total

    def build(self, docs):
        futures = [self.pool.submit(self.index_document, name, text) for name, text in docs.items()]
        for fut in as_completed(futures):
            name, counts = fut.result()
            self.index[name] = counts
            log.info("%s: %d distinct words", name, len(counts))
        return self.index

    def close(self):
        self.pool.shutdown(wait=True)


def main(argv=None):
    p = argparse.ArgumentParser(description="index documents")
    p.add_argument("--workers", type=int, default=CONFIG["workers"])
    p.add_argument("--chunk", type=int, default=CONFIG["chunk_chars"])
    args = p.parse_args(argv)
    logging.basicConfig(level=logging.INFO, format="%(threadName)s %(message)s")
    indexer = Indexer({**CONFIG, "workers": args.workers, "chunk_chars": args.chunk})
    try:
        index = indexer.build(DOCS)
    finally:
        indexer.close()
    top = sum(index.values(), Counter()).most_common(5)
    log.info("top words: %s", top)


if __name__ == "__main__":
    main()
