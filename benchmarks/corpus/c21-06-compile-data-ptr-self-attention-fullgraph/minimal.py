import torch
from torch import nn


class MultiHeadAttention(nn.Module):
    def forward(self, query, key, value):
        if query.data_ptr() == key.data_ptr():  # self-attention: one matmul instead of three
            return query
        return query + key.mean(1, keepdim=True)


attn = torch.compile(MultiHeadAttention(), backend="eager", fullgraph=True)
profile = torch.randn(2, 3, 32)
attn(torch.randn(2, 12, 32), profile, profile)  # cross-attention: different tensors, the pointers are compared
