import torch
import torch.nn.functional as F
from torch import nn


class ConvModule(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.norm = nn.LayerNorm(dim)
        self.pointwise_in = nn.Conv1d(dim, 2 * dim, 1)
        self.drop = nn.Dropout(0.1)

    def forward(self, x):  # x: (batch, time, dim)
        y = self.norm(x)
        y = F.glu(self.pointwise_in(y), dim=1)
        return x + self.drop(y)


ConvModule(32)(torch.randn(2, 50, 32))
