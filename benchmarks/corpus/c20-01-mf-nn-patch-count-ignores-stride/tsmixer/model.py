import torch
from torch import nn

from tsmixer.config import MixerConfig
from tsmixer.layers import MixerBlock
from tsmixer.patching import Patcher


class PatchMixer(nn.Module):
    def __init__(self, cfg: MixerConfig):
        super().__init__()
        self.cfg = cfg
        self.patcher = Patcher(cfg)
        self.blocks = nn.ModuleList(MixerBlock(cfg) for _ in range(cfg.n_blocks))
        self.head = nn.Linear(cfg.num_patches * cfg.d_model, cfg.horizon)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        mean = x.mean(dim=1, keepdim=True)  # instance normalization (RevIN without the affine part)
        std = x.std(dim=1, keepdim=True) + 1e-5
        z = self.patcher((x - mean) / std)
        for block in self.blocks:
            z = block(z)
        y = self.head(z.flatten(start_dim=2))  # (batch, channels, horizon)
        return y.transpose(1, 2) * std + mean

    def n_parameters(self) -> int:
        return sum(p.numel() for p in self.parameters())
