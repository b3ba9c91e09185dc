import torch
from torch import nn


class TokenEmbedding(nn.Module):
    def __init__(self, max_len, dim):
        super().__init__()
        self.positions = nn.Embedding(max_len, dim)

    def forward(self, ids):
        positions = torch.arange(ids.size(1), device=ids.device)
        return self.positions(positions)


ids = torch.ones(2, 4, dtype=torch.long)
cls = torch.ones(2, 1, dtype=torch.long)
TokenEmbedding(4, 8)(torch.cat([cls, ids], dim=1))
