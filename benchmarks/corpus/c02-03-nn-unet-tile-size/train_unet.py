"""Fit a small U-Net to synthetic cell-microscopy tiles (one step, to check the set-up).

python train_unet.py [--tile 100] [--depth 3] [--base 8]
"""
import argparse
from dataclasses import dataclass

import torch
import torch.nn.functional as F
from torch import nn


@dataclass
class UNetConfig:
    in_channels: int = 1
    num_classes: int = 2
    base: int = 8
    depth: int = 3
    tile: int = 100


def double_conv(cin: int, cout: int) -> nn.Sequential:
    return nn.Sequential(
        nn.Conv2d(cin, cout, 3, padding=1, bias=False), nn.BatchNorm2d(cout), nn.ReLU(inplace=True),
        nn.Conv2d(cout, cout, 3, padding=1, bias=False), nn.BatchNorm2d(cout), nn.ReLU(inplace=True),
    )


class DownBlock(nn.Module):
    def __init__(self, cin, cout):
        super().__init__()
        self.pool = nn.MaxPool2d(2)
        self.conv = double_conv(cin, cout)

    def forward(self, x):
        return self.conv(self.pool(x))


class UpBlock(nn.Module):
    def __init__(self, cin, cout):
        super().__init__()
        self.up = nn.ConvTranspose2d(cin, cout, kernel_size=2, stride=2)
        self.conv = double_conv(2 * cout, cout)

    def forward(self, x, skip):
        x = self.up(x)
        x = torch.cat([x, skip], dim=1)
        return self.conv(x)


class UNet(nn.Module):
    def __init__(self, cfg: UNetConfig):
        super().__init__()
        widths = [cfg.base * 2 ** i for i in range(cfg.depth + 1)]
        self.stem = double_conv(cfg.in_channels, widths[0])
        self.downs = nn.ModuleList(DownBlock(a, b) for a, b in zip(widths[:-1], widths[1:]))
        self.ups = nn.ModuleList(UpBlock(a, b) for a, b in zip(widths[::-1][:-1], widths[::-1][1:]))
        self.head = nn.Conv2d(widths[0], cfg.num_classes, 1)

    def forward(self, x):
        skips = [self.stem(x)]
        for down in self.downs:
            skips.append(down(skips[-1]))
        x = skips.pop()
        for up in self.ups:
            x = up(x, skips.pop())
        return self.head(x)


def synthetic_batch(cfg: UNetConfig, n: int = 2):
    g = torch.Generator().manual_seed(0)
    images = torch.rand(n, cfg.in_channels, cfg.tile, cfg.tile, generator=g)
    masks = (images[:, 0] > 0.5).long()
    return images, masks


def main(argv=None):
    p = argparse.ArgumentParser(description="one training step of a U-Net on synthetic tiles")
    p.add_argument("--tile", type=int, default=UNetConfig.tile)
    p.add_argument("--depth", type=int, default=UNetConfig.depth)
    p.add_argument("--base", type=int, default=UNetConfig.base)
    args = p.parse_args(argv)
    cfg = UNetConfig(tile=args.tile, depth=args.depth, base=args.base)
    torch.manual_seed(0)
    model = UNet(cfg)
    opt = torch.optim.SGD(model.parameters(), lr=0.01, momentum=0.9)
    images, masks = synthetic_batch(cfg)
    logits = model(images)
    loss = F.cross_entropy(logits, masks)
    loss.backward()
    opt.step()
    print(f"tile {cfg.tile} depth {cfg.depth}: loss {loss.item():.4f}")


if __name__ == "__main__":
    main()
