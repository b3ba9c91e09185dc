import torch
from torch import nn


class UpBlock(nn.Module):
    def __init__(self):
        super().__init__()
        self.up = nn.ConvTranspose2d(8, 8, kernel_size=2, stride=2)

    def forward(self, x, skip):
        x = self.up(x)
        x = torch.cat([x, skip], dim=1)


skip = torch.randn(1, 8, 25, 25)
UpBlock()(nn.MaxPool2d(2)(skip), skip)
