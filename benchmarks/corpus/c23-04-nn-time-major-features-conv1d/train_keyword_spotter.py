"""Train a keyword spotter on synthetic one-second clips: log filterbank features, a 1-D conv net."""
import argparse
import logging
import math

import torch
from torch import nn
from torch.utils.data import DataLoader, TensorDataset

log = logging.getLogger("kws")
SAMPLE_RATE, N_BANDS, HOP = 4000, 40, 40


def synth_clips(n: int, n_keywords: int, seed: int):
    g = torch.Generator().manual_seed(seed)
    t = torch.arange(SAMPLE_RATE) / SAMPLE_RATE
    labels = torch.randint(0, n_keywords, (n,), generator=g)
    freqs = 300.0 + 150.0 * labels.float()
    clips = torch.sin(2 * math.pi * freqs[:, None] * t) + 0.3 * torch.randn(n, SAMPLE_RATE, generator=g)
    return clips, labels


def log_filterbank(clip: torch.Tensor) -> torch.Tensor:
    """Frame the clip, take |FFT|, pool into N_BANDS bands; returns (bands, time), channels first."""
    frames = clip.unfold(0, 2 * HOP, HOP) * torch.hann_window(2 * HOP)
    power = torch.fft.rfft(frames).abs() ** 2
    bands = power[:, :N_BANDS * (power.shape[1] // N_BANDS)].reshape(power.shape[0], N_BANDS, -1).sum(-1)
    return torch.log(bands + 1e-6).T


def featurize(clips: torch.Tensor) -> torch.Tensor:
    feats = torch.stack([log_filterbank(c) for c in clips])
    feats = feats.transpose(1, 2)  # per-band statistics over the batch and time
    mean, std = feats.mean(dim=(0, 1), keepdim=True), feats.std(dim=(0, 1), keepdim=True)
    return (feats - mean) / std


class ConvBlock(nn.Module):
    def __init__(self, c_in: int, c_out: int, dilation: int):
        super().__init__()
        self.conv = nn.Conv1d(c_in, c_out, kernel_size=5, padding=2 * dilation, dilation=dilation)
        self.norm = nn.BatchNorm1d(c_out)
        self.act = nn.ReLU()

    def forward(self, x):
        return self.act(self.norm(self.conv(x)))


class KeywordNet(nn.Module):
    """(batch, bands, time) -> dilated conv stack -> global average pool -> logits."""

    def __init__(self, n_keywords: int, width: int = 32):
        super().__init__()
        self.frontend = nn.Sequential(ConvBlock(N_BANDS, width, 1), ConvBlock(width, width, 2),
                                      ConvBlock(width, width, 4))
        self.classifier = nn.Linear(width, n_keywords)

    def forward(self, feats):
        return self.classifier(self.frontend(feats).mean(dim=-1))


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("--keywords", type=int, default=4)
    p.add_argument("--clips", type=int, default=64)
    p.add_argument("--epochs", type=int, default=2)
    p.add_argument("--seed", type=int, default=0)
    args = p.parse_args(argv)
    logging.basicConfig(level=logging.INFO, format="%(name)s: %(message)s")
    torch.manual_seed(args.seed)
    clips, labels = synth_clips(args.clips, args.keywords, args.seed)
    loader = DataLoader(TensorDataset(featurize(clips), labels), batch_size=8, shuffle=True)
    model = KeywordNet(args.keywords)
    opt = torch.optim.AdamW(model.parameters(), lr=2e-3)
    for epoch in range(args.epochs):
        for feats, y in loader:
            loss = nn.functional.cross_entropy(model(feats), y)
            opt.zero_grad()
            loss.backward()
            opt.step()
        log.info("epoch %d: loss %.3f", epoch, loss.item())


if __name__ == "__main__":
    main()
