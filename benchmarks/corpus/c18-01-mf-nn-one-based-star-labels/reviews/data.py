import logging
import random

import torch
from torch.utils.data import Dataset

log = logging.getLogger(__name__)


def make_reviews(n, vocab_size, max_tokens, seed):
    """Synthetic reviews: token ids whose range leans with the star rating (1 to 5)."""
    rng = random.Random(seed)
    rows = []
    for _ in range(n):
        stars = rng.randint(1, 5)
        length = rng.randint(4, max_tokens)
        lo = (stars - 1) * vocab_size // 6
        tokens = [rng.randrange(lo, lo + vocab_size // 3) for _ in range(length)]
        rows.append({"stars": str(stars), "tokens": tokens, "helpful": rng.random() < 0.3})
    log.info("generated %d reviews", len(rows))
    return rows


class ReviewDataset(Dataset):
    def __init__(self, rows, max_tokens, stopwords=()):
        self.rows = rows
        self.max_tokens = max_tokens
        self.stopwords = set(stopwords)

    def __len__(self):
        return len(self.rows)

    def encode(self, tokens):
        kept = [t for t in tokens if t not in self.stopwords][: self.max_tokens]
        ids = torch.zeros(self.max_tokens, dtype=torch.long)
        ids[: len(kept)] = torch.tensor(kept, dtype=torch.long)
        return ids, len(kept)

    def __getitem__(self, idx):
        row = self.rows[idx]
        ids, length = self.encode(row["tokens"])
        label = int(row["stars"])
        return ids, torch.tensor(length), torch.tensor(label)
