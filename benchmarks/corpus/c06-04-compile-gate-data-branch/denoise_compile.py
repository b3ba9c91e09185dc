"""Compile a small 1-D denoiser for sensor traces (fullgraph, so that it can be exported later)."""
import argparse
import math

import torch
from torch import nn


class NoiseGate(nn.Module):
    """Suppress the residual when the trace is quiet: below the threshold it is sensor noise."""

    def __init__(self, threshold):
        super().__init__()
        self.threshold = threshold

    def forward(self, residual, trace):
        level = trace.std(dim=-1, keepdim=True)
        if level.mean() < self.threshold:
            return residual * 0.1
        return residual


class Denoiser(nn.Module):
    def __init__(self, channels=8, threshold=0.05):
        super().__init__()
        self.encode = nn.Conv1d(1, channels, kernel_size=5, padding=2)
        self.mix = nn.Sequential(nn.GELU(), nn.Conv1d(channels, channels, kernel_size=5, padding=2), nn.GELU())
        self.decode = nn.Conv1d(channels, 1, kernel_size=5, padding=2)
        self.gate = NoiseGate(threshold)

    def forward(self, trace):
        residual = self.decode(self.mix(self.encode(trace)))
        return trace - self.gate(residual, trace)


def synthetic_traces(batch, length, generator):
    t = torch.linspace(0, 4 * math.pi, length)
    freqs = torch.rand(batch, 1, 1, generator=generator) * 3 + 0.5
    clean = torch.sin(freqs * t)
    noise = 0.2 * torch.randn(batch, 1, length, generator=generator)
    return clean + noise, clean


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--batch", type=int, default=4)
    parser.add_argument("--length", type=int, default=128)
    parser.add_argument("--backend", default="eager")
    args = parser.parse_args()

    torch.manual_seed(0)
    gen = torch.Generator().manual_seed(0)
    model = Denoiser().eval()
    compiled = torch.compile(model, backend=args.backend, fullgraph=True)
    noisy, clean = synthetic_traces(args.batch, args.length, gen)
    with torch.no_grad():
        eager_out = model(noisy)
        out = compiled(noisy)
    assert torch.allclose(out, eager_out, atol=1e-5)
    mse = torch.mean((out - clean) ** 2).item()
    print(f"compiled denoiser ok, mse vs clean {mse:.4f}")


if __name__ == "__main__":
    main()
