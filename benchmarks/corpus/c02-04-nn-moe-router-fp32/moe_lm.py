"""A small mixture-of-experts language model, run in bfloat16 for a memory estimate.

python moe_lm.py [--layers 2] [--experts 4] [--top-k 2] [--seq 16]
"""
import argparse
import logging
from dataclasses import dataclass

import torch
import torch.nn.functional as F
from torch import nn

log = logging.getLogger("moe_lm")


@dataclass
class MoEConfig:
    vocab: int = 256
    d_model: int = 64
    n_heads: int = 4
    n_layers: int = 2
    n_experts: int = 4
    top_k: int = 2
    d_ff: int = 128


def make_mlp(d_in: int, d_hidden: int) -> nn.Sequential:
    return nn.Sequential(nn.Linear(d_in, d_hidden), nn.GELU(), nn.Linear(d_hidden, d_in))


class Router(nn.Module):
    """Top-k gating. The softmax runs in float32 for numerical stability."""

    def __init__(self, cfg: MoEConfig):
        super().__init__()
        self.gate = nn.Linear(cfg.d_model, cfg.n_experts, bias=False)
        self.top_k = cfg.top_k

    def forward(self, x):
        probs = F.softmax(self.gate(x).float(), dim=-1)
        weights, experts = probs.topk(self.top_k, dim=-1)
        return weights / weights.sum(-1, keepdim=True), experts


class MoELayer(nn.Module):
    def __init__(self, cfg: MoEConfig):
        super().__init__()
        self.router = Router(cfg)
        self.experts = nn.ModuleList([make_mlp(cfg.d_model, cfg.d_ff) for _ in range(cfg.n_experts)])
        self.shared = make_mlp(cfg.d_model, cfg.d_ff // 2)

    def forward(self, x):
        b, t, d = x.shape
        flat = x.reshape(-1, d)
        weights, chosen = self.router(flat)
        out = torch.zeros_like(flat)
        for e, expert in enumerate(self.experts):
            token_idx, slot = (chosen == e).nonzero(as_tuple=True)
            if token_idx.numel() == 0:
                continue
            y = expert(flat[token_idx]) * weights[token_idx, slot, None]
            out.index_add_(0, token_idx, y)
        return (out + self.shared(flat)).reshape(b, t, d)


class Block(nn.Module):
    def __init__(self, cfg: MoEConfig):
        super().__init__()
        self.ln1, self.ln2 = nn.LayerNorm(cfg.d_model), nn.LayerNorm(cfg.d_model)
        self.attn = nn.MultiheadAttention(cfg.d_model, cfg.n_heads, batch_first=True)
        self.moe = MoELayer(cfg)

    def forward(self, x, mask):
        h = self.ln1(x)
        x = x + self.attn(h, h, h, attn_mask=mask, need_weights=False)[0]
        return x + self.moe(self.ln2(x))


class MoELM(nn.Module):
    def __init__(self, cfg: MoEConfig):
        super().__init__()
        self.embed = nn.Embedding(cfg.vocab, cfg.d_model)
        self.blocks = nn.ModuleList([Block(cfg) for _ in range(cfg.n_layers)])
        self.norm = nn.LayerNorm(cfg.d_model)
        self.lm_head = nn.Linear(cfg.d_model, cfg.vocab, bias=False)

    def forward(self, tokens):
        t = tokens.shape[1]
        mask = torch.triu(torch.ones(t, t, dtype=torch.bool), diagonal=1)
        x = self.embed(tokens)
        for block in self.blocks:
            x = block(x, mask)
        return self.lm_head(self.norm(x))


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--layers", type=int, default=2)
    p.add_argument("--experts", type=int, default=4)
    p.add_argument("--top-k", type=int, default=2)
    p.add_argument("--seq", type=int, default=16)
    args = p.parse_args(argv)
    logging.basicConfig(level=logging.INFO)
    torch.manual_seed(0)
    cfg = MoEConfig(n_layers=args.layers, n_experts=args.experts, top_k=args.top_k)
    model = MoELM(cfg).to(torch.bfloat16).eval()
    n_params = sum(p.numel() for p in model.parameters())
    log.info("%d parameters, %.1f KiB in bf16", n_params, n_params * 2 / 1024)
    tokens = torch.randint(0, cfg.vocab, (2, args.seq))
    with torch.no_grad():
        logits = model(tokens)
    log.info("logits %s %s", tuple(logits.shape), logits.dtype)


if __name__ == "__main__":
    main()
