"""Denoise a batch of ECG strips with the 1-D U-Net (the smoke test run before every export)."""
import argparse
import logging
import math
from dataclasses import dataclass

import torch
from torch import nn

log = logging.getLogger("denoise_ecg")


@dataclass
class DenoiserConfig:
    leads: int = 1
    widths: tuple = (16, 32, 64)
    kernel: int = 5
    sample_rate: int = 250
    samples: int = 512
    batch: int = 4


class ConvBlock(nn.Module):
    def __init__(self, c_in, c_out, k):
        super().__init__()
        self.net = nn.Sequential(
            nn.Conv1d(c_in, c_out, k, padding=k // 2), nn.BatchNorm1d(c_out), nn.GELU(),
            nn.Conv1d(c_out, c_out, k, padding=k // 2), nn.BatchNorm1d(c_out), nn.GELU(),
        )

    def forward(self, x):
        return self.net(x)


class Down(nn.Module):
    def __init__(self, c_in, c_out, k):
        super().__init__()
        self.pool = nn.MaxPool1d(2)
        self.conv = ConvBlock(c_in, c_out, k)

    def forward(self, x):
        return self.conv(self.pool(x))


class Up(nn.Module):
    def __init__(self, c_in, c_out, k):
        super().__init__()
        self.up = nn.ConvTranspose1d(c_in, c_out, 2, stride=2)
        self.conv = ConvBlock(2 * c_out, c_out, k)

    def forward(self, x, skip):
        x = self.up(x)
        x = torch.cat([x, skip], dim=0)
        return self.conv(x)


class UNet1d(nn.Module):
    def __init__(self, cfg):
        super().__init__()
        w = cfg.widths
        self.stem = ConvBlock(cfg.leads, w[0], cfg.kernel)
        self.downs = nn.ModuleList(Down(a, b, cfg.kernel) for a, b in zip(w, w[1:]))
        self.ups = nn.ModuleList(Up(b, a, cfg.kernel) for a, b in reversed(list(zip(w, w[1:]))))
        self.head = nn.Conv1d(w[0], cfg.leads, 1)

    def forward(self, x):
        skips = [self.stem(x)]
        for down in self.downs:
            skips.append(down(skips[-1]))
        h = skips.pop()
        for up in self.ups:
            h = up(h, skips.pop())
        return self.head(h)


class Denoiser(nn.Module):
    """Standardize each strip, predict the noise, subtract it, undo the standardization."""

    def __init__(self, cfg):
        super().__init__()
        self.unet = UNet1d(cfg)

    def forward(self, x):
        mu, sd = x.mean(-1, keepdim=True), x.std(-1, keepdim=True).clamp_min(1e-6)
        z = (x - mu) / sd
        return (z - self.unet(z)) * sd + mu


def synth_strips(cfg, seed=0):
    """Clean beats (Gaussian R peaks every ~0.8 s) plus baseline wander and mains hum."""
    g = torch.Generator().manual_seed(seed)
    t = torch.arange(cfg.samples) / cfg.sample_rate
    clean = torch.zeros(cfg.batch, cfg.leads, cfg.samples)
    for b in range(cfg.batch):
        period = 0.7 + 0.2 * torch.rand((), generator=g).item()
        for beat in torch.arange(0.2, t[-1].item(), period):
            clean[b] += torch.exp(-((t - beat) ** 2) / (2 * 0.012 ** 2))
    noise = 0.15 * torch.sin(2 * math.pi * 0.3 * t) + 0.05 * torch.sin(2 * math.pi * 50 * t)
    return clean, clean + noise + 0.03 * torch.randn(clean.shape, generator=g)


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--weights", help="trained weights (default: random init, shape check only)")
    args = parser.parse_args()
    logging.basicConfig(level=logging.INFO, format="%(name)s: %(message)s")
    torch.manual_seed(args.seed)
    cfg = DenoiserConfig()
    model = Denoiser(cfg).eval()
    if args.weights:
        model.load_state_dict(torch.load(args.weights, map_location="cpu"))
    clean, noisy = synth_strips(cfg, args.seed)
    with torch.no_grad():
        out = model(noisy)
    assert out.shape == noisy.shape, (out.shape, noisy.shape)
    err_in, err_out = (noisy - clean).pow(2).mean(), (out - clean).pow(2).mean()
    log.info("MSE before %.4f, after %.4f (%d strips of %d samples)", err_in, err_out, cfg.batch, cfg.samples)


if __name__ == "__main__":
    main()
