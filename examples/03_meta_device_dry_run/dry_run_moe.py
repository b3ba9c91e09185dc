"""Dry-run a Mixture-of-Experts transformer on the meta device.

Before launching a job on real hardware we instantiate the model on
``torch.device("meta")`` (no memory is allocated), report the parameter count and
the weight memory for a few dtypes, and push a meta batch through ``forward`` to
check that every activation has the expected shape.

Usage:
    python dry_run_moe.py [--preset small|base] [--batch B] [--seq S]
"""

import argparse
from dataclasses import dataclass

import torch
import torch.nn as nn
import torch.nn.functional as F

PRESETS = {
    "small": dict(vocab=32000, dim=512, layers=4, heads=8, experts=8, top_k=2, ffn_mult=4),
    "base": dict(vocab=32000, dim=1024, layers=12, heads=16, experts=16, top_k=2, ffn_mult=4),
}
DTYPE_BYTES = {torch.float32: 4, torch.bfloat16: 2, torch.float16: 2}


@dataclass
class MoEConfig:
    vocab: int
    dim: int
    layers: int
    heads: int
    experts: int
    top_k: int
    ffn_mult: int


class Expert(nn.Module):
    def __init__(self, dim: int, hidden: int):
        super().__init__()
        self.w_in = nn.Linear(dim, hidden, bias=False)
        self.w_gate = nn.Linear(dim, hidden, bias=False)
        self.w_out = nn.Linear(hidden, dim, bias=False)

    def forward(self, x):
        return self.w_out(F.silu(self.w_gate(x)) * self.w_in(x))


class MoELayer(nn.Module):
    def __init__(self, cfg: MoEConfig):
        super().__init__()
        self.top_k = cfg.top_k
        self.router = nn.Linear(cfg.dim, cfg.experts, bias=False)
        self.experts = nn.ModuleList(Expert(cfg.dim, cfg.dim * cfg.ffn_mult) for _ in range(cfg.experts))

    def forward(self, x):
        batch, seq, dim = x.shape
        tokens = x.reshape(-1, dim)
        probs = F.softmax(self.router(tokens), dim=-1)
        weights, expert_idx = probs.topk(self.top_k, dim=-1)
        weights = weights / weights.sum(dim=-1, keepdim=True)
        out = torch.zeros_like(tokens)
        # only visit experts that actually received tokens
        active, counts = torch.unique(expert_idx, return_counts=True)
        for e in active.tolist():
            token_pos, slot = (expert_idx == e).nonzero(as_tuple=True)
            out.index_add_(0, token_pos, self.experts[e](tokens[token_pos]) * weights[token_pos, slot, None])
        return out.reshape(batch, seq, dim)


class Block(nn.Module):
    def __init__(self, cfg: MoEConfig):
        super().__init__()
        self.norm1 = nn.LayerNorm(cfg.dim)
        self.attn = nn.MultiheadAttention(cfg.dim, cfg.heads, batch_first=True)
        self.norm2 = nn.LayerNorm(cfg.dim)
        self.moe = MoELayer(cfg)

    def forward(self, x):
        h = self.norm1(x)
        x = x + self.attn(h, h, h, need_weights=False)[0]
        return x + self.moe(self.norm2(x))


class MoETransformer(nn.Module):
    def __init__(self, cfg: MoEConfig):
        super().__init__()
        self.embed = nn.Embedding(cfg.vocab, cfg.dim)
        self.blocks = nn.ModuleList(Block(cfg) for _ in range(cfg.layers))
        self.norm = nn.LayerNorm(cfg.dim)
        self.lm_head = nn.Linear(cfg.dim, cfg.vocab, bias=False)

    def forward(self, input_ids):
        x = self.embed(input_ids)
        for block in self.blocks:
            x = block(x)
        return self.lm_head(self.norm(x))


def human_bytes(n: float) -> str:
    for unit in ("B", "KiB", "MiB", "GiB", "TiB"):
        if n < 1024:
            return f"{n:.1f} {unit}"
        n /= 1024
    return f"{n:.1f} PiB"


def report_parameters(model: nn.Module) -> int:
    total = sum(p.numel() for p in model.parameters())
    experts = sum(p.numel() for n, p in model.named_parameters() if ".experts." in n)
    print(
        f"[params] total {total / 1e6:.1f}M, in experts {experts / 1e6:.1f}M ({100 * experts / total:.0f}%)"
    )
    for dtype, nbytes in DTYPE_BYTES.items():
        print(f"[params] weights as {str(dtype):<15} {human_bytes(total * nbytes)}")
    return total


def check_forward(model: nn.Module, cfg: MoEConfig, batch: int, seq: int) -> None:
    input_ids = torch.empty(batch, seq, dtype=torch.long, device="meta")
    print(f"[forward] meta batch {tuple(input_ids.shape)}")
    logits = model(input_ids)
    expected = (batch, seq, cfg.vocab)
    assert tuple(logits.shape) == expected, f"logits {tuple(logits.shape)} != {expected}"
    print(f"[forward] logits {tuple(logits.shape)}, activations ok")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--preset", choices=sorted(PRESETS), default="small")
    parser.add_argument("--batch", type=int, default=4)
    parser.add_argument("--seq", type=int, default=256)
    args = parser.parse_args()

    torch.manual_seed(0)
    cfg = MoEConfig(**PRESETS[args.preset])
    print(f"[main] preset={args.preset} {cfg}")
    with torch.device("meta"):
        model = MoETransformer(cfg)
    assert all(p.is_meta for p in model.parameters())
    report_parameters(model)
    model.eval()
    with torch.no_grad():
        check_forward(model, cfg, args.batch, args.seq)
    print("[main] dry run passed")


if __name__ == "__main__":
    main()
