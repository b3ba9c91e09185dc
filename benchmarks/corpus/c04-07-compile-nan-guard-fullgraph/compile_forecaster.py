"""Compile a small load forecaster with fullgraph=True and predict the next day's hourly load."""

import argparse
import logging
import math

import torch
from torch import nn

log = logging.getLogger("forecast")

DEFAULTS = {"history": 48, "horizon": 24, "hidden": 64, "backend": "eager"}


def check_finite(x, name):
    """Fail fast on NaN/inf activations instead of training on garbage."""
    if not torch.isfinite(x).all():
        raise FloatingPointError(f"non-finite values in {name}")
    return x


class Normalizer(nn.Module):
    def forward(self, x):
        mean = x.mean(dim=-1, keepdim=True)
        std = x.std(dim=-1, keepdim=True).clamp_min(1e-6)
        return (x - mean) / std, mean, std


class Forecaster(nn.Module):
    def __init__(self, history, horizon, hidden):
        super().__init__()
        self.norm = Normalizer()
        self.encoder = nn.Sequential(nn.Linear(history, hidden), nn.SiLU(), nn.Linear(hidden, hidden))
        self.head = nn.Linear(hidden, horizon)

    def forward(self, series):
        x, mean, std = self.norm(series)
        h = check_finite(self.encoder(x), "encoder output")
        return self.head(h) * std + mean


def synthetic_load(days, history, seed=0):
    gen = torch.Generator().manual_seed(seed)
    hours = torch.arange(days * 24 + history, dtype=torch.float32)
    daily = 50 + 20 * torch.sin(2 * math.pi * hours / 24)
    return daily + torch.randn(hours.shape, generator=gen)


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--backend", default=DEFAULTS["backend"])
    parser.add_argument("--days", type=int, default=2)
    args = parser.parse_args()
    logging.basicConfig(level=logging.INFO, format="%(name)s: %(message)s")

    torch.manual_seed(0)
    model = Forecaster(DEFAULTS["history"], DEFAULTS["horizon"], DEFAULTS["hidden"]).eval()
    compiled = torch.compile(model, backend=args.backend, fullgraph=True)
    load = synthetic_load(args.days, DEFAULTS["history"])
    windows = load.unfold(0, DEFAULTS["history"], 24)[: args.days]
    with torch.no_grad():
        forecast = compiled(windows)
    for day, row in enumerate(forecast):
        log.info("day %d: peak %.1f at hour %d", day, row.max().item(), row.argmax().item())


if __name__ == "__main__":
    main()
