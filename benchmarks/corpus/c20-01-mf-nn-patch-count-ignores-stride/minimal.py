import torch
from torch import nn

seq_len, patch_len, stride, d_model = 96, 16, 8, 64
num_patches = seq_len // patch_len  # 6, but unfold with step=stride cuts (96 - 16) // 8 + 1 = 11

x = torch.randn(16, 7, seq_len)  # (batch, channels, seq_len)
z = nn.Linear(patch_len, d_model)(x.unfold(dimension=-1, size=patch_len, step=stride))
token_mlp = nn.Linear(num_patches, num_patches * 2)
token_mlp(z.transpose(-1, -2))  # mixes across patches
