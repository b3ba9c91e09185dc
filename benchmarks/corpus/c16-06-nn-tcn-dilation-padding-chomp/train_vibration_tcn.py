"""Train a small TCN to tell pump vibration recordings apart: normal, imbalance, bearing fault."""

import argparse
import math

import torch
from torch import nn

CLASSES = ["normal", "imbalance", "bearing"]
SAMPLE_RATE, SECONDS = 64, 1


def synth_recording(label, g):
    """A synthetic accelerometer trace: the shaft tone, plus what the fault adds, plus noise."""
    t = torch.arange(SAMPLE_RATE * SECONDS) / SAMPLE_RATE
    x = torch.sin(2 * math.pi * 5 * t)
    if label == 1:
        x = 2.5 * x
    elif label == 2:
        x = x + 0.6 * torch.sin(2 * math.pi * 23 * t) * (torch.rand(1, generator=g) + 0.5)
    return (x + 0.2 * torch.randn(t.shape, generator=g)).unsqueeze(0)


class Chomp1d(nn.Module):
    """Drop the right padding so the convolution stays causal."""

    def __init__(self, size):
        super().__init__()
        self.size = size

    def forward(self, x):
        return x[:, :, : -self.size].contiguous() if self.size else x


class TemporalBlock(nn.Module):
    def __init__(self, cin, cout, kernel_size, dilation, dropout=0.1):
        super().__init__()
        self.pad = kernel_size - 1
        self.net = nn.Sequential(
            nn.Conv1d(cin, cout, kernel_size, padding=self.pad, dilation=dilation), Chomp1d(self.pad),
            nn.ReLU(), nn.Dropout(dropout),
            nn.Conv1d(cout, cout, kernel_size, padding=self.pad, dilation=dilation), Chomp1d(self.pad),
            nn.ReLU(), nn.Dropout(dropout),
        )
        self.downsample = nn.Conv1d(cin, cout, 1) if cin != cout else nn.Identity()

    def forward(self, x):
        out = self.net(x)
        res = self.downsample(x)
        return torch.relu(out + res)


class TCN(nn.Module):
    def __init__(self, cin, channels, kernel_size=3):
        super().__init__()
        blocks, prev = [], cin
        for i, ch in enumerate(channels):
            blocks.append(TemporalBlock(prev, ch, kernel_size, dilation=2**i))
            prev = ch
        self.blocks = nn.Sequential(*blocks)

    def forward(self, x):
        return self.blocks(x)


class VibrationClassifier(nn.Module):
    def __init__(self, n_classes=len(CLASSES)):
        super().__init__()
        self.tcn = TCN(1, [16, 16, 32])
        self.head = nn.Linear(32, n_classes)

    def forward(self, x):
        return self.head(self.tcn(x)[:, :, -1])  # the last (causal) time step


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--epochs", type=int, default=3)
    args = parser.parse_args(argv)
    torch.manual_seed(0)
    g = torch.Generator().manual_seed(1)
    labels = torch.arange(48) % len(CLASSES)
    x = torch.stack([synth_recording(int(y), g) for y in labels])
    model = VibrationClassifier()
    opt = torch.optim.Adam(model.parameters(), lr=3e-3)
    for epoch in range(args.epochs):
        for i in range(0, len(x), 16):
            loss = nn.functional.cross_entropy(model(x[i : i + 16]), labels[i : i + 16])
            opt.zero_grad()
            loss.backward()
            opt.step()
        acc = (model(x).argmax(1) == labels).float().mean().item()
        print(f"epoch {epoch}: loss {loss.item():.3f} train acc {acc:.2f}")


if __name__ == "__main__":
    main()
