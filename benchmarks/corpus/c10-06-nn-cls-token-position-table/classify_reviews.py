"""Classify product reviews with a small transformer encoder (a [CLS] token pools the review)."""
import argparse
import logging
from dataclasses import dataclass

import torch
from torch import nn

log = logging.getLogger("classify_reviews")


@dataclass
class ModelConfig:
    vocab_size: int = 500
    max_len: int = 64  # reviews are truncated to this many tokens
    dim: int = 32
    heads: int = 4
    layers: int = 2
    n_labels: int = 3  # negative, neutral, positive
    cls_id: int = 1


class TokenEmbedding(nn.Module):
    def __init__(self, vocab_size, max_len, dim):
        super().__init__()
        self.tokens = nn.Embedding(vocab_size, dim, padding_idx=0)
        self.positions = nn.Embedding(max_len, dim)
        self.norm = nn.LayerNorm(dim)

    def forward(self, ids):
        positions = torch.arange(ids.size(1), device=ids.device)
        return self.norm(self.tokens(ids) + self.positions(positions))


class ReviewEncoder(nn.Module):
    def __init__(self, cfg):
        super().__init__()
        self.embed = TokenEmbedding(cfg.vocab_size, cfg.max_len, cfg.dim)
        layer = nn.TransformerEncoderLayer(cfg.dim, cfg.heads, 2 * cfg.dim, dropout=0.1, batch_first=True)
        self.layers = nn.TransformerEncoder(layer, cfg.layers, enable_nested_tensor=False)

    def forward(self, ids):
        return self.layers(self.embed(ids), src_key_padding_mask=ids.eq(0))


class ReviewClassifier(nn.Module):
    def __init__(self, cfg):
        super().__init__()
        self.cfg = cfg
        self.encoder = ReviewEncoder(cfg)
        self.head = nn.Linear(cfg.dim, cfg.n_labels)

    def forward(self, ids):
        cls = torch.full((ids.size(0), 1), self.cfg.cls_id, dtype=ids.dtype, device=ids.device)
        hidden = self.encoder(torch.cat([cls, ids], dim=1))
        return self.head(hidden[:, 0])


def tokenize_batch(lengths, cfg, seed=0):
    """Stand-in for the tokenizer: random ids, truncated to max_len and right-padded with 0."""
    g = torch.Generator().manual_seed(seed)
    ids = torch.zeros(len(lengths), cfg.max_len, dtype=torch.long)
    for row, n in enumerate(lengths):
        n = min(n, cfg.max_len)
        ids[row, :n] = torch.randint(2, cfg.vocab_size, (n,), generator=g)
    return ids


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    logging.basicConfig(level=logging.INFO, format="%(name)s: %(message)s")
    torch.manual_seed(args.seed)
    cfg = ModelConfig()
    model = ReviewClassifier(cfg).eval()
    ids = tokenize_batch([12, 80, 40, 7], cfg, args.seed)
    with torch.no_grad():
        probs = model(ids).softmax(-1)
    for row, p in enumerate(probs.tolist()):
        log.info("review %d: %s", row, " ".join(f"{x:.2f}" for x in p))


if __name__ == "__main__":
    main()
