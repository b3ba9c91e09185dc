"""Compile a small 1-D denoiser with fullgraph=True and time its stages (profiling build).

python compile_denoiser.py [--channels 16] [--length 64]
"""
import argparse
import logging
import time
from collections import defaultdict

import torch
from torch import nn

log = logging.getLogger("denoiser")
PROFILE = True  # per-stage wall times, collected by StageTimer


class StageTimer:
    totals = defaultdict(float)

    def __init__(self, name):
        self.name = name

    def __enter__(self):
        self.start = time.perf_counter() if PROFILE else 0.0
        return self

    def __exit__(self, *exc):
        if PROFILE:
            StageTimer.totals[self.name] += time.perf_counter() - self.start
        return False


class ResidualConv(nn.Module):
    def __init__(self, channels, dilation):
        super().__init__()
        self.conv = nn.Conv1d(channels, channels, 3, padding=dilation, dilation=dilation)
        self.act = nn.GELU()

    def forward(self, x):
        return x + self.act(self.conv(x))


class Denoiser(nn.Module):
    def __init__(self, channels=16, dilations=(1, 2, 4)):
        super().__init__()
        self.inp = nn.Conv1d(1, channels, 1)
        self.body = nn.ModuleList(ResidualConv(channels, d) for d in dilations)
        self.out = nn.Conv1d(channels, 1, 1)

    def forward(self, x):
        h = self.inp(x)
        with StageTimer("body"):
            for block in self.body:
                h = block(h)
        return x - self.out(h)


def noisy_batch(n, length, seed=0):
    g = torch.Generator().manual_seed(seed)
    t = torch.linspace(0, 6.28, length)
    clean = torch.sin(t * torch.randint(1, 4, (n, 1), generator=g))
    return (clean + 0.1 * torch.randn(n, length, generator=g)).unsqueeze(1), clean.unsqueeze(1)


def main(argv=None):
    p = argparse.ArgumentParser(description="compile and profile the denoiser")
    p.add_argument("--channels", type=int, default=16)
    p.add_argument("--length", type=int, default=64)
    args = p.parse_args(argv)
    logging.basicConfig(level=logging.INFO)
    torch.manual_seed(0)
    model = Denoiser(args.channels).eval()
    compiled = torch.compile(model, fullgraph=True, backend="eager")
    noisy, clean = noisy_batch(4, args.length)
    with torch.no_grad():
        for step in range(3):
            out = compiled(noisy)
            log.info("step %d mse %.4f", step, torch.mean((out - clean) ** 2).item())
    log.info("stage times: %s", dict(StageTimer.totals))


if __name__ == "__main__":
    main()
