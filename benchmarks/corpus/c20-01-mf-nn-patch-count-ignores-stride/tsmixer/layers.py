import torch
from torch import nn

from tsmixer.config import MixerConfig


def mlp(dim: int, hidden: int, dropout: float) -> nn.Sequential:
    return nn.Sequential(nn.Linear(dim, hidden), nn.GELU(), nn.Dropout(dropout), nn.Linear(hidden, dim))


class TokenMixing(nn.Module):
    """Mixes information across the patches of each channel."""

    def __init__(self, cfg: MixerConfig):
        super().__init__()
        self.norm = nn.LayerNorm(cfg.d_model)
        self.mlp = mlp(cfg.num_patches, cfg.num_patches * cfg.expansion, cfg.dropout)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        y = self.norm(x).transpose(-1, -2)  # (batch, channels, d_model, patches)
        return x + self.mlp(y).transpose(-1, -2)


class ChannelMixing(nn.Module):
    """Mixes the features of each patch."""

    def __init__(self, cfg: MixerConfig):
        super().__init__()
        self.norm = nn.LayerNorm(cfg.d_model)
        self.mlp = mlp(cfg.d_model, cfg.d_model * cfg.expansion, cfg.dropout)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return x + self.mlp(self.norm(x))


class MixerBlock(nn.Module):
    def __init__(self, cfg: MixerConfig):
        super().__init__()
        self.tokens = TokenMixing(cfg)
        self.features = ChannelMixing(cfg)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.features(self.tokens(x))
