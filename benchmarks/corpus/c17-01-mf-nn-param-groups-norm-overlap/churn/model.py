import torch
from torch import nn


class ResidualBlock(nn.Module):
    def __init__(self, dim, dropout):
        super().__init__()
        self.norm = nn.LayerNorm(dim)
        self.fc1 = nn.Linear(dim, dim * 2)
        self.fc2 = nn.Linear(dim * 2, dim)
        self.drop = nn.Dropout(dropout)

    def forward(self, x):
        h = self.fc2(self.drop(torch.relu(self.fc1(self.norm(x)))))
        return x + h


class ChurnNet(nn.Module):
    def __init__(self, n_plans, n_numeric, hidden, n_blocks, dropout):
        super().__init__()
        self.plan_emb = nn.Embedding(n_plans, 8)
        self.inp = nn.Linear(8 + n_numeric, hidden)
        self.blocks = nn.ModuleList(ResidualBlock(hidden, dropout) for _ in range(n_blocks))
        self.final_norm = nn.LayerNorm(hidden)
        self.out = nn.Linear(hidden, 1)

    def forward(self, plan, numeric):
        x = self.inp(torch.cat([self.plan_emb(plan), numeric], dim=1))
        for block in self.blocks:
            x = block(x)
        return self.out(self.final_norm(x)).squeeze(1)
