"""Benchmark a small residual denoiser, eager vs torch.compile, on synthetic noisy signals."""
import copy
import time
from dataclasses import dataclass

import torch
from torch import nn


@dataclass
class DenoiseConfig:
    channels: int = 16
    length: int = 256
    batch: int = 8
    noise: float = 0.3
    repeats: int = 3


class ConvBlock(nn.Module):
    def __init__(self, channels):
        super().__init__()
        self.conv = nn.Conv1d(channels, channels, 5, padding=2)
        self.act = nn.ReLU(inplace=True)

    def forward(self, x):
        return self.act(self.conv(x))


class ResidualDenoiser(nn.Module):
    """Predicts the noise and subtracts it from the input."""

    def __init__(self, channels):
        super().__init__()
        self.inp = nn.Conv1d(1, channels, 3, padding=1)
        self.blocks = nn.Sequential(ConvBlock(channels), ConvBlock(channels))
        self.out = nn.Conv1d(channels, 1, 3, padding=1)

    def forward(self, x):
        noisy = copy.deepcopy(x)  # a snapshot of the input for the residual
        h = self.blocks(self.inp(x))
        return noisy - self.out(h)


def make_signals(cfg):
    t = torch.linspace(0, 8 * torch.pi, cfg.length)
    clean = torch.sin(t).expand(cfg.batch, 1, cfg.length)
    return clean, clean + cfg.noise * torch.randn(cfg.batch, 1, cfg.length)


def timed(fn, x, repeats):
    start = time.perf_counter()
    for _ in range(repeats):
        out = fn(x)
    return out, (time.perf_counter() - start) / repeats


def main():
    torch.manual_seed(0)
    cfg = DenoiseConfig()
    model = ResidualDenoiser(cfg.channels).eval()
    clean, noisy = make_signals(cfg)
    compiled = torch.compile(model, backend="eager", fullgraph=True)
    with torch.no_grad():
        ref, t_eager = timed(model, noisy, cfg.repeats)
        out, t_comp = timed(compiled, noisy, cfg.repeats)
    torch.testing.assert_close(out, ref)
    mse = torch.mean((out - clean) ** 2).item()
    print(f"eager {t_eager * 1e3:.2f} ms, compiled {t_comp * 1e3:.2f} ms, mse vs clean {mse:.4f}")


if __name__ == "__main__":
    main()
