"""Train a tiny transformer sentiment classifier on padded token batches (CPU smoke run)."""

import argparse
import logging
import math

import torch
from torch import nn
import torch.nn.functional as F

log = logging.getLogger("train_review_classifier")
PAD = 0


class SelfAttention(nn.Module):
    def __init__(self, dim: int, heads: int):
        super().__init__()
        self.heads, self.head_dim = heads, dim // heads
        self.qkv = nn.Linear(dim, 3 * dim)
        self.out = nn.Linear(dim, dim)

    def forward(self, x, pad_mask):
        b, t, d = x.shape
        q, k, v = self.qkv(x).view(b, t, 3, self.heads, self.head_dim).permute(2, 0, 3, 1, 4)
        scores = q @ k.transpose(-1, -2) / math.sqrt(self.head_dim)
        scores = scores.masked_fill(pad_mask[:, None, None, :], float("-inf"))
        ctx = scores.softmax(-1) @ v
        return self.out(ctx.transpose(1, 2).reshape(b, t, d))


class EncoderLayer(nn.Module):
    def __init__(self, dim: int, heads: int, dropout: float):
        super().__init__()
        self.norm1, self.norm2 = nn.LayerNorm(dim), nn.LayerNorm(dim)
        self.attn = SelfAttention(dim, heads)
        self.ff = nn.Sequential(nn.Linear(dim, 4 * dim), nn.GELU(), nn.Linear(4 * dim, dim))
        self.drop = nn.Dropout(dropout)

    def forward(self, x, pad_mask):
        x = x + self.drop(self.attn(self.norm1(x), pad_mask))
        return x + self.drop(self.ff(self.norm2(x)))


class ReviewClassifier(nn.Module):
    def __init__(self, vocab: int, dim: int = 32, heads: int = 4, layers: int = 2, classes: int = 2,
                 max_len: int = 64, dropout: float = 0.1):
        super().__init__()
        self.tok = nn.Embedding(vocab, dim, padding_idx=PAD)
        self.pos = nn.Embedding(max_len, dim)
        self.layers = nn.ModuleList(EncoderLayer(dim, heads, dropout) for _ in range(layers))
        self.head = nn.Linear(dim, classes)

    def forward(self, input_ids):
        pad_mask = (input_ids == PAD).float()  # 1.0 on padding, reused by the masked mean below
        pos = torch.arange(input_ids.shape[1], device=input_ids.device)
        x = self.tok(input_ids) + self.pos(pos)
        for layer in self.layers:
            x = layer(x, pad_mask)
        keep = (1 - pad_mask).unsqueeze(-1)
        pooled = (x * keep).sum(1) / keep.sum(1).clamp(min=1)
        return self.head(pooled)


def make_batch(batch: int, max_len: int, vocab: int, gen: torch.Generator):
    lengths = torch.randint(4, max_len + 1, (batch,), generator=gen)
    ids = torch.randint(1, vocab, (batch, max_len), generator=gen)
    ids[torch.arange(max_len)[None, :] >= lengths[:, None]] = PAD
    labels = (ids[:, 0] % 2).long()  # a learnable toy rule
    return ids, labels


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--steps", type=int, default=20)
    parser.add_argument("--batch", type=int, default=16)
    parser.add_argument("--max-len", type=int, default=24)
    parser.add_argument("--lr", type=float, default=3e-3)
    args = parser.parse_args()
    logging.basicConfig(level=logging.INFO, format="%(name)s: %(message)s")
    torch.manual_seed(0)
    gen = torch.Generator().manual_seed(0)

    vocab = 100
    model = ReviewClassifier(vocab, max_len=args.max_len)
    opt = torch.optim.AdamW(model.parameters(), lr=args.lr)
    for step in range(1, args.steps + 1):
        ids, labels = make_batch(args.batch, args.max_len, vocab, gen)
        loss = F.cross_entropy(model(ids), labels)
        opt.zero_grad()
        loss.backward()
        opt.step()
        if step % 5 == 0:
            log.info("step %d loss %.4f", step, loss.item())
    model.eval()
    with torch.no_grad():
        ids, labels = make_batch(64, args.max_len, vocab, gen)
        acc = (model(ids).argmax(-1) == labels).float().mean().item()
    log.info("held-out accuracy %.3f", acc)


if __name__ == "__main__":
    main()
