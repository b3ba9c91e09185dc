"""Embeddings for the categorical columns, then an MLP of Linear -> BatchNorm -> ReLU blocks."""
import torch
from torch import nn


class MLPBlock(nn.Module):
    def __init__(self, d_in, d_out, dropout):
        super().__init__()
        self.linear = nn.Linear(d_in, d_out)
        self.norm = nn.BatchNorm1d(d_out)
        self.drop = nn.Dropout(dropout)

    def forward(self, x):
        return self.drop(torch.relu(self.norm(self.linear(x))))


class TabularNet(nn.Module):
    def __init__(self, cfg):
        super().__init__()
        self.plan = nn.Embedding(cfg.plans, cfg.embed_dim)
        self.region = nn.Embedding(cfg.regions, cfg.embed_dim)
        widths = [cfg.n_numeric + 2 * cfg.embed_dim, *cfg.hidden]
        self.blocks = nn.Sequential(*[MLPBlock(a, b, cfg.dropout) for a, b in zip(widths, widths[1:])])
        self.head = nn.Linear(widths[-1], 1)

    def forward(self, numeric, categorical):
        x = torch.cat([numeric, self.plan(categorical[:, 0]), self.region(categorical[:, 1])], dim=1)
        return self.head(self.blocks(x)).squeeze(1)
