"""ShapeNet: a stem stage at full resolution, then downsampling stages, then the head."""
from torch import nn

from .blocks import ConvStage, Head


class ShapeNet(nn.Module):
    def __init__(self, cfg):
        super().__init__()
        stages = []
        c_in = cfg.in_channels
        for i, c_out in enumerate(cfg.channels):
            # the stem keeps the resolution; the later stages halve it
            stages.append(ConvStage(c_in, c_out, stride=1 if i == 0 else 2))
            c_in = c_out
        self.features = nn.Sequential(*stages)
        self.head = Head(cfg.flat_features, cfg.hidden, cfg.num_classes, cfg.dropout)

    def forward(self, x):
        return self.head(self.features(x))
