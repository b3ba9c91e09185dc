"""Tag the tokens of a few sequences with a small self-attention encoder (inference only)."""

import argparse
import logging
import math

import torch
from torch import nn

log = logging.getLogger("tagger")

CONFIG = {"vocab": 500, "dim": 64, "heads": 4, "layers": 2, "tags": 9, "max_len": 32}


class SelfAttention(nn.Module):
    def __init__(self, dim, heads):
        super().__init__()
        self.heads = heads
        self.head_dim = dim // heads
        self.dim = dim
        self.qkv = nn.Linear(dim, 3 * dim)
        self.out = nn.Linear(dim, dim)

    def _split_heads(self, x, b, t):
        return x.view(b, t, self.heads, self.head_dim).transpose(1, 2)

    def _merge_heads(self, x, b, t):
        return x.transpose(1, 2).view(b, t, self.dim)

    def forward(self, x):
        b, t, _ = x.shape
        q, k, v = (self._split_heads(p, b, t) for p in self.qkv(x).chunk(3, dim=-1))
        scores = q @ k.transpose(-2, -1) / math.sqrt(self.head_dim)
        context = scores.softmax(dim=-1) @ v
        return self.out(self._merge_heads(context, b, t))


class EncoderLayer(nn.Module):
    def __init__(self, dim, heads):
        super().__init__()
        self.norm1, self.norm2 = nn.LayerNorm(dim), nn.LayerNorm(dim)
        self.attn = SelfAttention(dim, heads)
        self.ff = nn.Sequential(nn.Linear(dim, 4 * dim), nn.GELU(), nn.Linear(4 * dim, dim))

    def forward(self, x):
        x = x + self.attn(self.norm1(x))
        return x + self.ff(self.norm2(x))


class Tagger(nn.Module):
    def __init__(self, cfg):
        super().__init__()
        self.embed = nn.Embedding(cfg["vocab"], cfg["dim"])
        self.pos = nn.Parameter(torch.zeros(cfg["max_len"], cfg["dim"]))
        self.layers = nn.ModuleList(EncoderLayer(cfg["dim"], cfg["heads"]) for _ in range(cfg["layers"]))
        self.classify = nn.Linear(cfg["dim"], cfg["tags"])

    def forward(self, ids):
        x = self.embed(ids) + self.pos[: ids.shape[1]]
        for layer in self.layers:
            x = layer(x)
        return self.classify(x)


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--batch", type=int, default=3)
    parser.add_argument("--length", type=int, default=20)
    args = parser.parse_args()
    logging.basicConfig(level=logging.INFO, format="%(name)s: %(message)s")
    torch.manual_seed(0)
    model = Tagger(CONFIG).eval()
    ids = torch.randint(0, CONFIG["vocab"], (args.batch, args.length))
    with torch.no_grad():
        tags = model(ids).argmax(dim=-1)
    for row in tags.tolist():
        log.info("tags: %s", " ".join(map(str, row)))


if __name__ == "__main__":
    main()
