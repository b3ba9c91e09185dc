import logging
import re

import torch

log = logging.getLogger(__name__)

SENTENCES = [
    "the parcel left the depot this morning",
    "delivery delayed by weather",
    "signed for at the front desk today",
    "customer asked for a new window today",
]

_TOKEN = re.compile(r"[a-z']+")


def load_sentences(limit=None):
    rows = SENTENCES if limit is None else SENTENCES[:limit]
    log.debug("loaded %d sentences", len(rows))
    return list(rows)


class Vocab:
    def __init__(self, cfg):
        self.cfg = cfg
        self.index = {"<pad>": cfg.pad_id, "<unk>": cfg.unk_id}

    def tokenize(self, text):
        if self.cfg.lowercase:
            text = text.lower()
        return _TOKEN.findall(text)

    def fit(self, texts):
        for text in texts:
            for tok in self.tokenize(text):
                if tok not in self.index and len(self.index) < self.cfg.max_vocab:
                    self.index[tok] = len(self.index)
        return self

    def encode(self, text):
        return [self.index.get(tok, self.cfg.unk_id) for tok in self.tokenize(text)]


def collate(encoded, pad_id):
    lengths = torch.tensor([len(ids) for ids in encoded])
    batch = torch.full((len(encoded), int(lengths.max())), pad_id, dtype=torch.long)
    for row, ids in enumerate(encoded):
        batch[row, : len(ids)] = torch.tensor(ids)
    return batch, lengths
