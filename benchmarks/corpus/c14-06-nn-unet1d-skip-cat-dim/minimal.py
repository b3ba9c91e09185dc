import torch
from torch import nn


class Up(nn.Module):
    def __init__(self, c_in, c_out, k):
        super().__init__()
        self.up = nn.ConvTranspose1d(c_in, c_out, 2, stride=2)
        self.net = nn.Conv1d(2 * c_out, c_out, k, padding=k // 2)

    def forward(self, x, skip):
        x = self.up(x)
        x = torch.cat([x, skip], dim=0)
        return self.net(x)


Up(64, 32, 5)(torch.randn(4, 64, 128), torch.randn(4, 32, 256))
