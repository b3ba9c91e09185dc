import torch
from torch import nn


class Block(nn.Module):
    def __init__(self, n_in, n_out, dropout):
        super().__init__()
        self.linear = nn.Linear(n_in, n_out)
        self.norm = nn.LayerNorm(n_out)
        self.drop = nn.Dropout(dropout)

    def forward(self, x):
        return self.drop(torch.relu(self.norm(self.linear(x))))


class TabularNet(nn.Module):
    def __init__(self, cfg):
        super().__init__()
        sizes = (cfg.num_features, *cfg.hidden)
        self.blocks = nn.Sequential(*[Block(a, b, cfg.dropout) for a, b in zip(sizes, sizes[1:])])
        self.head = nn.Linear(sizes[-1], cfg.num_classes)

    def forward(self, x):
        return self.head(self.blocks(x))
