import torch
from torch import nn


def conv_bn_relu(cin, cout):
    return nn.Sequential(nn.Conv2d(cin, cout, 3, padding=1, bias=False), nn.BatchNorm2d(cout), nn.ReLU(inplace=True))


class TinySegNet(nn.Module):
    """Two conv stages and a 1x1 classifier; keeps the spatial size."""

    def __init__(self, cfg):
        super().__init__()
        chans = [cfg.in_channels, *cfg.widths]
        self.stages = nn.ModuleList(conv_bn_relu(a, b) for a, b in zip(chans, chans[1:]))
        self.head = nn.Conv2d(chans[-1], cfg.num_classes, 1)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        for stage in self.stages:
            x = stage(x)
        return self.head(x)
