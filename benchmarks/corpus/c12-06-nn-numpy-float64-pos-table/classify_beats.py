"""Classify ECG beats (normal / PVC / other) with a small patch transformer; one smoke step on synthetic beats."""
import argparse
import logging
import math

import numpy as np
import torch
import torch.nn.functional as F
from torch import nn

log = logging.getLogger("classify_beats")

CLASSES = ("normal", "pvc", "other")


def sinusoid_table(n_position, d_hid):
    """The fixed sinusoid table of "Attention is all you need"."""
    def angle_vec(pos):
        return [pos / np.power(10000, 2 * (j // 2) / d_hid) for j in range(d_hid)]

    table = np.array([angle_vec(p) for p in range(n_position)])
    table[:, 0::2] = np.sin(table[:, 0::2])
    table[:, 1::2] = np.cos(table[:, 1::2])
    return table


class PositionalEncoding(nn.Module):
    def __init__(self, d_hid, n_position=64):
        super().__init__()
        table = sinusoid_table(n_position, d_hid)
        self.register_buffer("pos_table", torch.from_numpy(table).unsqueeze(0))

    def forward(self, x):
        return x + self.pos_table[:, :x.size(1)]


class SelfAttention(nn.Module):
    def __init__(self, dim, heads):
        super().__init__()
        self.heads, self.head_dim = heads, dim // heads
        self.qkv = nn.Linear(dim, 3 * dim)
        self.out = nn.Linear(dim, dim)

    def forward(self, x):
        b, t, d = x.shape
        q, k, v = self.qkv(x).view(b, t, 3, self.heads, self.head_dim).permute(2, 0, 3, 1, 4)
        att = (q @ k.transpose(-2, -1)) / math.sqrt(self.head_dim)
        y = att.softmax(-1) @ v
        return self.out(y.transpose(1, 2).reshape(b, t, d))


class EncoderLayer(nn.Module):
    def __init__(self, dim, heads, dropout=0.1):
        super().__init__()
        self.attn = SelfAttention(dim, heads)
        self.ff = nn.Sequential(nn.Linear(dim, 2 * dim), nn.GELU(), nn.Linear(2 * dim, dim))
        self.norm1, self.norm2 = nn.LayerNorm(dim), nn.LayerNorm(dim)
        self.drop = nn.Dropout(dropout)

    def forward(self, x):
        x = self.norm1(x + self.drop(self.attn(x)))
        return self.norm2(x + self.drop(self.ff(x)))


class BeatClassifier(nn.Module):
    def __init__(self, patch=8, dim=32, heads=4, depth=2, n_classes=len(CLASSES)):
        super().__init__()
        self.embed = nn.Conv1d(1, dim, kernel_size=patch, stride=patch)
        self.pos = PositionalEncoding(dim)
        self.layers = nn.ModuleList(EncoderLayer(dim, heads) for _ in range(depth))
        self.head = nn.Linear(dim, n_classes)

    def forward(self, beats):
        x = self.embed(beats.unsqueeze(1)).transpose(1, 2)
        x = self.pos(x)
        for layer in self.layers:
            x = layer(x)
        return self.head(x.mean(1))


def synthetic_beats(n=8, length=128, seed=0):
    g = torch.Generator().manual_seed(seed)
    t = torch.linspace(0, 1, length)
    labels = torch.randint(0, len(CLASSES), (n,), generator=g)
    width = torch.tensor([0.02, 0.06, 0.04])[labels]
    beats = torch.exp(-((t - 0.5) ** 2) / width[:, None]) + 0.05 * torch.randn(n, length, generator=g)
    return beats, labels


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--lr", type=float, default=1e-3)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    logging.basicConfig(level=logging.INFO, format="%(name)s: %(message)s")
    torch.manual_seed(args.seed)
    model = BeatClassifier()
    opt = torch.optim.Adam(model.parameters(), lr=args.lr)
    beats, labels = synthetic_beats(seed=args.seed)
    loss = F.cross_entropy(model(beats), labels)
    opt.zero_grad()
    loss.backward()
    opt.step()
    log.info("smoke step ok: loss %.4f, %d parameters", loss.item(), sum(p.numel() for p in model.parameters()))


if __name__ == "__main__":
    main()
