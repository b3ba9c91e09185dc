"""Train a small transformer sentiment classifier with torch.compile(fullgraph=True).

Token sequences are synthesized (variable length, right-padded with PAD_ID); the
label depends on how many "positive" vs. "negative" marker tokens a sequence has.
The model is compiled with ``fullgraph=True`` because we later export it for a
device backend that cannot fall back to Python between graphs.

Usage:
    python compile_text_classifier.py [--steps N] [--batch B] [--no-compile]
"""

import argparse
import math

import torch
import torch.nn as nn
import torch.nn.functional as F

PAD_ID = 0
VOCAB = 1000
POSITIVE_TOKENS = range(10, 20)
NEGATIVE_TOKENS = range(20, 30)
MAX_LEN = 48


def make_batch(batch_size: int, gen: torch.Generator):
    lengths = torch.randint(8, MAX_LEN + 1, (batch_size,), generator=gen)
    tokens = torch.randint(30, VOCAB, (batch_size, MAX_LEN), generator=gen)
    markers = torch.randint(10, 30, (batch_size, MAX_LEN), generator=gen)
    use_marker = torch.rand(batch_size, MAX_LEN, generator=gen) < 0.15
    tokens = torch.where(use_marker, markers, tokens)
    positions = torch.arange(MAX_LEN)[None, :]
    tokens = tokens.masked_fill(positions >= lengths[:, None], PAD_ID)
    pos = ((tokens >= 10) & (tokens < 20)).sum(dim=1)
    neg = ((tokens >= 20) & (tokens < 30)).sum(dim=1)
    labels = (pos > neg).long()
    return tokens, labels


def sinusoidal_positions(length: int, dim: int) -> torch.Tensor:
    pos = torch.arange(length, dtype=torch.float32)[:, None]
    freq = torch.exp(torch.arange(0, dim, 2, dtype=torch.float32) * (-math.log(10000.0) / dim))
    table = torch.zeros(length, dim)
    table[:, 0::2] = torch.sin(pos * freq)
    table[:, 1::2] = torch.cos(pos * freq)
    return table


def masked_mean(x: torch.Tensor, padding_mask: torch.Tensor) -> torch.Tensor:
    """Mean over the sequence dimension, ignoring padded positions."""
    if padding_mask.any():
        x = x.masked_fill(padding_mask[..., None], 0.0)
        denom = (~padding_mask).sum(dim=1, keepdim=True).clamp(min=1)
        return x.sum(dim=1) / denom
    return x.mean(dim=1)


class EncoderLayer(nn.Module):
    def __init__(self, dim: int, heads: int, dropout: float):
        super().__init__()
        self.heads = heads
        self.qkv = nn.Linear(dim, 3 * dim)
        self.proj = nn.Linear(dim, dim)
        self.norm1 = nn.LayerNorm(dim)
        self.norm2 = nn.LayerNorm(dim)
        self.ffn = nn.Sequential(nn.Linear(dim, 4 * dim), nn.GELU(), nn.Linear(4 * dim, dim))
        self.dropout = nn.Dropout(dropout)

    def forward(self, x, padding_mask):
        b, s, d = x.shape
        q, k, v = self.qkv(self.norm1(x)).view(b, s, 3, self.heads, d // self.heads).unbind(dim=2)
        attn_mask = ~padding_mask[:, None, None, :]
        h = F.scaled_dot_product_attention(
            q.transpose(1, 2), k.transpose(1, 2), v.transpose(1, 2), attn_mask=attn_mask
        )
        x = x + self.dropout(self.proj(h.transpose(1, 2).reshape(b, s, d)))
        return x + self.dropout(self.ffn(self.norm2(x)))


class SentimentClassifier(nn.Module):
    def __init__(self, dim: int = 64, heads: int = 4, layers: int = 2, dropout: float = 0.1):
        super().__init__()
        self.embed = nn.Embedding(VOCAB, dim, padding_idx=PAD_ID)
        self.register_buffer("positions", sinusoidal_positions(MAX_LEN, dim), persistent=False)
        self.layers = nn.ModuleList(EncoderLayer(dim, heads, dropout) for _ in range(layers))
        self.norm = nn.LayerNorm(dim)
        self.head = nn.Linear(dim, 2)

    def forward(self, tokens):
        padding_mask = tokens == PAD_ID
        x = self.embed(tokens) + self.positions[: tokens.size(1)]
        for layer in self.layers:
            x = layer(x, padding_mask)
        return self.head(masked_mean(self.norm(x), padding_mask))


def accuracy(logits: torch.Tensor, labels: torch.Tensor) -> float:
    return (logits.argmax(dim=-1) == labels).float().mean().item()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=60)
    parser.add_argument("--batch", type=int, default=32)
    parser.add_argument("--lr", type=float, default=1e-3)
    parser.add_argument("--no-compile", action="store_true")
    args = parser.parse_args()

    torch.manual_seed(0)
    gen = torch.Generator().manual_seed(0)
    model = SentimentClassifier()
    optimizer = torch.optim.Adam(model.parameters(), lr=args.lr)
    step_fn = model if args.no_compile else torch.compile(model, fullgraph=True)
    print(
        f"[main] parameters: {sum(p.numel() for p in model.parameters()):,}, compiled={not args.no_compile}"
    )

    model.train()
    for step in range(args.steps):
        tokens, labels = make_batch(args.batch, gen)
        logits = step_fn(tokens)
        loss = F.cross_entropy(logits, labels)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        if step % 20 == 0:
            print(f"[train] step {step:3d} loss {loss.item():.4f} acc {accuracy(logits, labels):.3f}")

    model.eval()
    with torch.no_grad():
        tokens, labels = make_batch(256, gen)
        print(f"[eval] accuracy {accuracy(step_fn(tokens), labels):.3f}")


if __name__ == "__main__":
    main()
