"""Compile a small sequence tagger with fullgraph=True before exporting it to the serving stack.

python compile_tagger.py [--backend eager] [--layers 3] [--check]
"""
import argparse
import logging
from dataclasses import dataclass

import torch
from torch import nn

log = logging.getLogger("tagger")


@dataclass
class TaggerConfig:
    vocab: int = 500
    dim: int = 32
    layers: int = 3
    tags: int = 9
    kernel: int = 3


class GatedConvBlock(nn.Module):
    """Depthwise conv over time with a sigmoid gate and a residual connection."""

    def __init__(self, dim: int, kernel: int, index: int):
        super().__init__()
        self.index = index
        self.norm = nn.LayerNorm(dim)
        self.conv = nn.Conv1d(dim, dim, kernel, padding=kernel // 2, groups=dim)
        self.gate = nn.Linear(dim, dim)

    def forward(self, x):
        h = self.norm(x)
        h = self.conv(h.transpose(1, 2)).transpose(1, 2)
        g = torch.sigmoid(self.gate(x))
        log.debug("block %d: gate mean %.3f", self.index, g.mean())
        return x + g * h


class Tagger(nn.Module):
    def __init__(self, cfg: TaggerConfig):
        super().__init__()
        self.embed = nn.Embedding(cfg.vocab, cfg.dim, padding_idx=0)
        self.blocks = nn.Sequential(*[GatedConvBlock(cfg.dim, cfg.kernel, i) for i in range(cfg.layers)])
        self.classify = nn.Linear(cfg.dim, cfg.tags)

    def forward(self, tokens):
        return self.classify(self.blocks(self.embed(tokens)))


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--backend", default="eager", help="torch.compile backend (eager while debugging)")
    p.add_argument("--layers", type=int, default=3)
    p.add_argument("--check", action="store_true", help="compare against eager")
    args = p.parse_args(argv)
    logging.basicConfig(level=logging.INFO, format="%(name)s: %(message)s")
    torch.manual_seed(0)
    model = Tagger(TaggerConfig(layers=args.layers)).eval()
    tokens = torch.randint(1, 500, (4, 20))
    compiled = torch.compile(model, fullgraph=True, backend=args.backend)
    with torch.no_grad():
        tags = compiled(tokens).argmax(-1)
        if args.check:
            torch.testing.assert_close(tags, model(tokens).argmax(-1))
    log.info("tagged %d tokens, %d distinct tags", tags.numel(), tags.unique().numel())


if __name__ == "__main__":
    main()
