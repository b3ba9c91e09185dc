"""Encode browsing sessions with a small attention encoder, compiled once for the batch-scoring job."""

import argparse
import logging
import time

import torch
import torch.nn.functional as F
from torch import nn

log = logging.getLogger("encode_sessions")


class MultiHeadAttention(nn.Module):
    def __init__(self, dim: int, heads: int):
        super().__init__()
        self.heads = heads
        self.qkv = nn.Linear(dim, 3 * dim)  # fused projection for self-attention
        self.out = nn.Linear(dim, dim)

    def split(self, x: torch.Tensor) -> torch.Tensor:
        b, n, d = x.shape
        return x.view(b, n, self.heads, d // self.heads).transpose(1, 2)

    def forward(self, query: torch.Tensor, key: torch.Tensor, value: torch.Tensor) -> torch.Tensor:
        if query.data_ptr() == key.data_ptr():  # self-attention: one matmul instead of three
            q, k, v = self.qkv(query).chunk(3, dim=-1)
        else:
            w_q, w_k, w_v = self.qkv.weight.chunk(3)
            b_q, b_k, b_v = self.qkv.bias.chunk(3)
            q, k, v = F.linear(query, w_q, b_q), F.linear(key, w_k, b_k), F.linear(value, w_v, b_v)
        ctx = F.scaled_dot_product_attention(self.split(q), self.split(k), self.split(v))
        return self.out(ctx.transpose(1, 2).flatten(2))


class EncoderLayer(nn.Module):
    def __init__(self, dim: int, heads: int):
        super().__init__()
        self.norm1, self.norm2, self.norm3 = nn.LayerNorm(dim), nn.LayerNorm(dim), nn.LayerNorm(dim)
        self.attn = MultiHeadAttention(dim, heads)
        self.cross = MultiHeadAttention(dim, heads)  # attends to the user's profile tokens
        self.ff = nn.Sequential(nn.Linear(dim, 4 * dim), nn.GELU(), nn.Linear(4 * dim, dim))

    def forward(self, x: torch.Tensor, profile: torch.Tensor) -> torch.Tensor:
        h = self.norm1(x)
        x = x + self.attn(h, h, h)
        x = x + self.cross(self.norm2(x), profile, profile)
        return x + self.ff(self.norm3(x))


class SessionEncoder(nn.Module):
    def __init__(self, num_items: int, num_segments: int, dim: int = 32, heads: int = 4, depth: int = 2):
        super().__init__()
        self.items = nn.Embedding(num_items, dim)
        self.segments = nn.Embedding(num_segments, dim)
        self.layers = nn.ModuleList(EncoderLayer(dim, heads) for _ in range(depth))

    def forward(self, item_ids: torch.Tensor, segment_ids: torch.Tensor) -> torch.Tensor:
        x, profile = self.items(item_ids), self.segments(segment_ids)
        for layer in self.layers:
            x = layer(x, profile)
        return F.normalize(x.mean(1), dim=-1)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--num-items", type=int, default=500)
    parser.add_argument("--num-segments", type=int, default=20)
    parser.add_argument("--sessions", type=int, default=64)
    parser.add_argument("--length", type=int, default=12)
    parser.add_argument("--batch", type=int, default=16)
    args = parser.parse_args()
    logging.basicConfig(level=logging.INFO, format="%(name)s: %(message)s")
    torch.manual_seed(0)

    model = SessionEncoder(args.num_items, args.num_segments).eval()
    # the scoring job must run as one graph: fail loudly on any graph break
    encoder = torch.compile(model, backend="eager", fullgraph=True)
    sessions = torch.randint(0, args.num_items, (args.sessions, args.length))
    segments = torch.randint(0, args.num_segments, (args.sessions, 3))  # each user's three profile segments
    start = time.perf_counter()
    with torch.no_grad():
        embeddings = torch.cat([encoder(items, segs) for items, segs in zip(sessions.split(args.batch),
                                                                            segments.split(args.batch))])
    log.info("encoded %d sessions in %.2fs", len(embeddings), time.perf_counter() - start)
    print(f"mean pairwise similarity {(embeddings @ embeddings.T).mean():.3f}")


if __name__ == "__main__":
    main()
