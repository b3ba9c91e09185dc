import torch
from torch import nn

feats = torch.randn(8, 40, 99)  # (batch, bands, time), channels first
feats = feats.transpose(1, 2)  # per-band statistics over the batch and time
nn.Conv1d(40, 32, kernel_size=5)(feats)
