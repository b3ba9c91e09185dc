import torch
from torch import nn


class SelfAttention(nn.Module):
    def __init__(self, dim, heads, dropout):
        super().__init__()
        self.mha = nn.MultiheadAttention(dim, heads, dropout=dropout)

    def forward(self, x, pad_mask):  # x: (batch, time, dim), pad_mask: (batch, time)
        out, _ = self.mha(x, x, x, key_padding_mask=pad_mask, need_weights=False)
        return out


SelfAttention(32, 4, 0.1)(torch.randn(4, 20, 32), torch.zeros(4, 20, dtype=torch.bool))
