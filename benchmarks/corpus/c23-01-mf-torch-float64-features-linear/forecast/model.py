import torch
from torch import nn


class ResidualBlock(nn.Module):
    def __init__(self, width: int, dropout: float):
        super().__init__()
        self.norm = nn.LayerNorm(width)
        self.ff = nn.Sequential(nn.Linear(width, width * 2), nn.GELU(), nn.Dropout(dropout),
                                nn.Linear(width * 2, width))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return x + self.ff(self.norm(x))


class DemandRegressor(nn.Module):
    """Input projection, a stack of residual blocks, a softplus head (units are non-negative)."""

    def __init__(self, n_features: int, width: int = 32, depth: int = 2, dropout: float = 0.1):
        super().__init__()
        self.proj = nn.Linear(n_features, width)
        self.blocks = nn.ModuleList(ResidualBlock(width, dropout) for _ in range(depth))
        self.head = nn.Sequential(nn.Linear(width, 1), nn.Softplus())

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        h = self.proj(x)
        for block in self.blocks:
            h = block(h)
        return self.head(h)
