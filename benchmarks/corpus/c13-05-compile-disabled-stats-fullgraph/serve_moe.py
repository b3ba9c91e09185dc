"""Serve the small mixture-of-experts tagger compiled as one graph (the latency budget allows no breaks)."""
import argparse
import logging
from collections import Counter
from dataclasses import dataclass

import torch
from torch import nn

log = logging.getLogger("serve_moe")


@dataclass
class MoEConfig:
    vocab: int = 500
    dim: int = 32
    n_experts: int = 4
    n_tags: int = 9
    batch: int = 4
    seq_len: int = 12


class Router(nn.Module):
    """Top-1 routing; keeps per-expert token counts for the load dashboard."""

    def __init__(self, dim, n_experts):
        super().__init__()
        self.gate = nn.Linear(dim, n_experts)
        self.load = Counter()

    @torch.compiler.disable
    def record_load(self, choice):
        # bookkeeping only; kept out of the compiled graph
        self.load.update(choice.flatten().tolist())

    def forward(self, x):
        probs = self.gate(x).softmax(dim=-1)
        weight, choice = probs.max(dim=-1)
        self.record_load(choice)
        return weight, choice


class MoELayer(nn.Module):
    def __init__(self, dim, n_experts):
        super().__init__()
        self.router = Router(dim, n_experts)
        self.experts = nn.ModuleList(
            nn.Sequential(nn.Linear(dim, 2 * dim), nn.GELU(), nn.Linear(2 * dim, dim)) for _ in range(n_experts))

    def forward(self, x):
        weight, choice = self.router(x)
        out = torch.zeros_like(x)
        for i, expert in enumerate(self.experts):
            mask = (choice == i).unsqueeze(-1)
            out = out + mask * expert(x)
        return x + weight.unsqueeze(-1) * out


class Tagger(nn.Module):
    def __init__(self, cfg):
        super().__init__()
        self.embed = nn.Embedding(cfg.vocab, cfg.dim)
        self.moe = MoELayer(cfg.dim, cfg.n_experts)
        self.head = nn.Linear(cfg.dim, cfg.n_tags)

    def forward(self, ids):
        return self.head(self.moe(self.embed(ids)))


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--requests", type=int, default=3)
    args = parser.parse_args()
    logging.basicConfig(level=logging.INFO, format="%(name)s: %(message)s")
    torch.manual_seed(0)
    cfg = MoEConfig()
    model = Tagger(cfg).eval()
    compiled = torch.compile(model, backend="eager", fullgraph=True)
    with torch.no_grad():
        for step in range(args.requests):
            ids = torch.randint(0, cfg.vocab, (cfg.batch, cfg.seq_len))
            tags = compiled(ids).argmax(dim=-1)
            log.info("request %d: %d tokens tagged", step, tags.numel())
    log.info("expert load: %s", dict(model.moe.router.load))


if __name__ == "__main__":
    main()
