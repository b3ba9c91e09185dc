import torch
from torch import nn

from tsmixer.config import MixerConfig


class Patcher(nn.Module):
    """(batch, seq_len, channels) -> (batch, channels, patches, d_model)."""

    def __init__(self, cfg: MixerConfig):
        super().__init__()
        self.patch_len = cfg.patch_len
        self.stride = cfg.stride
        self.proj = nn.Linear(cfg.patch_len, cfg.d_model)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = x.transpose(1, 2)  # (batch, channels, seq_len)
        patches = x.unfold(dimension=-1, size=self.patch_len, step=self.stride)
        return self.proj(patches)
