"""Train a small relative-position transformer that tags tokens of synthetic sensor event streams.

    python train_tagger.py --steps 20 --layers 2
"""

import argparse
import logging
import math
from dataclasses import dataclass

import torch
from torch import nn
from torch.nn import functional as F

log = logging.getLogger("train_tagger")


@dataclass
class TaggerConfig:
    vocab: int = 96
    n_tags: int = 6
    dim: int = 64
    heads: int = 4
    layers: int = 2
    max_distance: int = 32
    bucket_width: int = 4
    dropout: float = 0.1
    seq_len: int = 40
    batch: int = 16


class RelativePositionBias(nn.Module):
    """A learned bias per head for each clipped, bucketed distance between query and key."""

    def __init__(self, heads, max_distance, bucket_width):
        super().__init__()
        self.max_distance = max_distance
        self.bucket_width = bucket_width
        n_buckets = 2 * max_distance // bucket_width + 1
        self.table = nn.Embedding(n_buckets, heads)

    def forward(self, q_len, k_len):
        rel = torch.arange(k_len)[None, :] - torch.arange(q_len)[:, None]
        buckets = (rel.clamp(-self.max_distance, self.max_distance) + self.max_distance) / self.bucket_width
        return self.table(buckets).permute(2, 0, 1)  # (heads, q, k)


class SelfAttention(nn.Module):
    def __init__(self, cfg):
        super().__init__()
        self.heads = cfg.heads
        self.qkv = nn.Linear(cfg.dim, 3 * cfg.dim)
        self.out = nn.Linear(cfg.dim, cfg.dim)
        self.rel_bias = RelativePositionBias(cfg.heads, cfg.max_distance, cfg.bucket_width)
        self.drop = nn.Dropout(cfg.dropout)

    def forward(self, x, pad_mask):
        b, n, d = x.shape
        q, k, v = self.qkv(x).view(b, n, 3, self.heads, d // self.heads).permute(2, 0, 3, 1, 4)
        scores = q @ k.transpose(-2, -1) / math.sqrt(d // self.heads)
        scores = scores + self.rel_bias(n, n)
        scores = scores.masked_fill(pad_mask[:, None, None, :], float("-inf"))
        attn = self.drop(scores.softmax(-1))
        return self.out((attn @ v).transpose(1, 2).reshape(b, n, d))


class EncoderLayer(nn.Module):
    def __init__(self, cfg):
        super().__init__()
        self.norm1 = nn.LayerNorm(cfg.dim)
        self.attn = SelfAttention(cfg)
        self.norm2 = nn.LayerNorm(cfg.dim)
        self.ff = nn.Sequential(nn.Linear(cfg.dim, 4 * cfg.dim), nn.GELU(), nn.Linear(4 * cfg.dim, cfg.dim))

    def forward(self, x, pad_mask):
        x = x + self.attn(self.norm1(x), pad_mask)
        return x + self.ff(self.norm2(x))


class EventTagger(nn.Module):
    def __init__(self, cfg):
        super().__init__()
        self.embed = nn.Embedding(cfg.vocab, cfg.dim, padding_idx=0)
        self.layers = nn.ModuleList(EncoderLayer(cfg) for _ in range(cfg.layers))
        self.norm = nn.LayerNorm(cfg.dim)
        self.classify = nn.Linear(cfg.dim, cfg.n_tags)

    def forward(self, tokens):
        pad_mask = tokens == 0
        x = self.embed(tokens)
        for layer in self.layers:
            x = layer(x, pad_mask)
        return self.classify(self.norm(x))


def make_batch(cfg, gen):
    """Event streams: token ids; a token's tag is its id bucket, shifted when the previous token repeats."""
    lengths = torch.randint(cfg.seq_len // 2, cfg.seq_len + 1, (cfg.batch,), generator=gen)
    tokens = torch.randint(1, cfg.vocab, (cfg.batch, cfg.seq_len), generator=gen)
    tokens[torch.arange(cfg.seq_len)[None, :] >= lengths[:, None]] = 0
    tags = tokens * cfg.n_tags // cfg.vocab
    repeat = torch.zeros_like(tokens, dtype=torch.bool)
    repeat[:, 1:] = tokens[:, 1:] == tokens[:, :-1]
    tags = torch.where(repeat, (tags + 1) % cfg.n_tags, tags)
    tags[tokens == 0] = -100
    return tokens, tags


def main():
    logging.basicConfig(level=logging.INFO, format="%(levelname)s %(name)s: %(message)s")
    cfg = TaggerConfig()
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("--steps", type=int, default=20)
    p.add_argument("--layers", type=int, default=cfg.layers)
    p.add_argument("--lr", type=float, default=1e-3)
    args = p.parse_args()
    cfg.layers = args.layers
    torch.manual_seed(0)
    gen = torch.Generator().manual_seed(0)
    model = EventTagger(cfg)
    opt = torch.optim.AdamW(model.parameters(), lr=args.lr)
    for step in range(args.steps):
        tokens, tags = make_batch(cfg, gen)
        logits = model(tokens)
        loss = F.cross_entropy(logits.reshape(-1, cfg.n_tags), tags.reshape(-1), ignore_index=-100)
        opt.zero_grad()
        loss.backward()
        opt.step()
        if step % 5 == 0:
            log.info("step %d: loss %.4f", step, loss.item())
    log.info("done")


if __name__ == "__main__":
    main()
