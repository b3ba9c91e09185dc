"""Load a checkpoint without materializing random weights first (meta-device init + assign=True).

python fast_load.py [--layers 2] [--dim 64]
"""
import argparse
import io
import logging
import time
from dataclasses import dataclass

import torch
import torch.nn.functional as F
from torch import nn

log = logging.getLogger("fast_load")


@dataclass
class LMConfig:
    vocab: int = 512
    dim: int = 64
    heads: int = 4
    layers: int = 2
    rope_base: float = 10000.0


class RotaryEmbedding(nn.Module):
    def __init__(self, head_dim, base):
        super().__init__()
        inv_freq = 1.0 / base ** (torch.arange(0, head_dim, 2, dtype=torch.float32) / head_dim)
        self.register_buffer("inv_freq", inv_freq, persistent=False)

    def forward(self, x, positions):
        angles = positions[:, None].float() * self.inv_freq[None, :]
        cos, sin = angles.cos().repeat(1, 2), angles.sin().repeat(1, 2)
        x1, x2 = x.chunk(2, dim=-1)
        return x * cos + torch.cat([-x2, x1], dim=-1) * sin


class Attention(nn.Module):
    def __init__(self, cfg):
        super().__init__()
        self.heads, self.head_dim = cfg.heads, cfg.dim // cfg.heads
        self.qkv = nn.Linear(cfg.dim, 3 * cfg.dim, bias=False)
        self.out = nn.Linear(cfg.dim, cfg.dim, bias=False)
        self.rotary = RotaryEmbedding(self.head_dim, cfg.rope_base)

    def forward(self, x):
        b, t, _ = x.shape
        q, k, v = self.qkv(x).view(b, t, 3, self.heads, self.head_dim).unbind(2)
        pos = torch.arange(t, device=x.device)
        q, k = self.rotary(q.transpose(1, 2), pos), self.rotary(k.transpose(1, 2), pos)
        y = F.scaled_dot_product_attention(q, k, v.transpose(1, 2), is_causal=True)
        return self.out(y.transpose(1, 2).reshape(b, t, -1))


class Block(nn.Module):
    def __init__(self, cfg):
        super().__init__()
        self.norm1, self.norm2 = nn.RMSNorm(cfg.dim), nn.RMSNorm(cfg.dim)
        self.attn = Attention(cfg)
        self.mlp = nn.Sequential(nn.Linear(cfg.dim, 4 * cfg.dim), nn.SiLU(), nn.Linear(4 * cfg.dim, cfg.dim))

    def forward(self, x):
        x = x + self.attn(self.norm1(x))
        return x + self.mlp(self.norm2(x))


class TinyLM(nn.Module):
    def __init__(self, cfg):
        super().__init__()
        self.embed = nn.Embedding(cfg.vocab, cfg.dim)
        self.blocks = nn.ModuleList(Block(cfg) for _ in range(cfg.layers))
        self.norm = nn.RMSNorm(cfg.dim)
        self.head = nn.Linear(cfg.dim, cfg.vocab, bias=False)

    def forward(self, tokens):
        x = self.embed(tokens)
        for block in self.blocks:
            x = block(x)
        return self.head(self.norm(x))


def save_checkpoint(cfg):
    """Stand-in for the training job's checkpoint: a state dict in memory."""
    buf = io.BytesIO()
    torch.save(TinyLM(cfg).state_dict(), buf)
    buf.seek(0)
    return buf


def load_fast(cfg, checkpoint, device="cpu"):
    start = time.perf_counter()
    with torch.device("meta"):
        model = TinyLM(cfg)
    state = torch.load(checkpoint, map_location=device, weights_only=True)
    model.load_state_dict(state, assign=True)
    model = model.to(device)
    log.info("loaded %d tensors in %.3f s", len(state), time.perf_counter() - start)
    return model.eval()


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--layers", type=int, default=2)
    p.add_argument("--dim", type=int, default=64)
    args = p.parse_args(argv)
    logging.basicConfig(level=logging.INFO)
    torch.manual_seed(0)
    cfg = LMConfig(dim=args.dim, layers=args.layers)
    model = load_fast(cfg, save_checkpoint(cfg))
    with torch.no_grad():
        logits = model(torch.randint(0, cfg.vocab, (2, 16)))
    log.info("logits %s", tuple(logits.shape))


if __name__ == "__main__":
    main()
