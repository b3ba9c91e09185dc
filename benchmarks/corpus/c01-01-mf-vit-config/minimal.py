import torch
from torch import nn

DEFAULTS = {"embed_dim": 64}
cfg = {**DEFAULTS, "embed_dim": 48}
cfg["norm_dim"] = DEFAULTS["embed_dim"]
nn.LayerNorm(cfg["norm_dim"])(torch.randn(8, 17, cfg["embed_dim"]))
