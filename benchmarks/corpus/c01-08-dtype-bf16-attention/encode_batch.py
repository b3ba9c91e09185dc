"""Encode a batch of token sequences with a small transformer encoder (inference)."""
import math

import torch
from torch import nn

torch.manual_seed(0)


class RotaryEmbedding(nn.Module):
    def __init__(self, head_dim, base=10000):
        super().__init__()
        inv_freq = 1.0 / (base ** (torch.arange(0, head_dim, 2).float() / head_dim))
        self.register_buffer("inv_freq", inv_freq, persistent=False)

    def forward(self, x):
        t = torch.arange(x.shape[-2], dtype=self.inv_freq.dtype)
        freqs = torch.outer(t, self.inv_freq)
        cos, sin = freqs.cos(), freqs.sin()
        x1, x2 = x[..., 0::2], x[..., 1::2]
        return torch.stack((x1 * cos - x2 * sin, x1 * sin + x2 * cos), dim=-1).flatten(-2)


class SelfAttention(nn.Module):
    def __init__(self, dim, heads, low_precision_scores=True):
        super().__init__()
        self.heads = heads
        self.head_dim = dim // heads
        self.qkv = nn.Linear(dim, dim * 3)
        self.rotary = RotaryEmbedding(self.head_dim)
        self.out = nn.Linear(dim, dim)
        self.low_precision_scores = low_precision_scores

    def forward(self, x):
        b, n, d = x.shape
        q, k, v = self.qkv(x).view(b, n, 3, self.heads, self.head_dim).permute(2, 0, 3, 1, 4)
        q, k = self.rotary(q), self.rotary(k)
        if self.low_precision_scores:
            # halve the memory of the score matrix
            q, k, v = q.to(torch.bfloat16), k.to(torch.bfloat16), v.to(torch.bfloat16)
        scores = q @ k.transpose(-2, -1) / math.sqrt(self.head_dim)
        ctx = scores.softmax(-1) @ v
        return self.out(ctx.transpose(1, 2).reshape(b, n, d))


class FeedForward(nn.Module):
    def __init__(self, dim, hidden):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(dim, hidden), nn.SiLU(), nn.Linear(hidden, dim))

    def forward(self, x):
        return self.net(x)


class EncoderLayer(nn.Module):
    def __init__(self, dim, heads):
        super().__init__()
        self.norm1 = nn.LayerNorm(dim)
        self.attn = SelfAttention(dim, heads)
        self.norm2 = nn.LayerNorm(dim)
        self.ff = FeedForward(dim, dim * 4)

    def forward(self, x):
        x = x + self.attn(self.norm1(x))
        return x + self.ff(self.norm2(x))


class Encoder(nn.Module):
    def __init__(self, vocab=1000, dim=64, heads=4, depth=3):
        super().__init__()
        self.embed = nn.Embedding(vocab, dim)
        self.layers = nn.ModuleList(EncoderLayer(dim, heads) for _ in range(depth))
        self.norm = nn.LayerNorm(dim)

    def forward(self, ids):
        x = self.embed(ids)
        for layer in self.layers:
            x = layer(x)
        return self.norm(x)


def main():
    model = Encoder().eval()
    ids = torch.randint(0, 1000, (2, 12))
    with torch.no_grad():
        hidden = model(ids)
    print("pooled:", hidden.mean(1).shape)


if __name__ == "__main__":
    main()
