import torch
from torch import nn


class ChurnNet(nn.Module):
    """Plan embedding + numeric features -> MLP -> one churn logit per account."""

    def __init__(self, n_plans, n_numeric, plan_dim=4, hidden=32, dropout=0.1):
        super().__init__()
        self.plan = nn.Embedding(n_plans, plan_dim)
        self.norm = nn.BatchNorm1d(n_numeric)
        self.body = nn.Sequential(
            nn.Linear(plan_dim + n_numeric, hidden), nn.ReLU(), nn.Dropout(dropout),
            nn.Linear(hidden, hidden), nn.ReLU(),
        )
        self.head = nn.Linear(hidden, 1)

    def forward(self, plans, numeric):
        h = self.body(torch.cat([self.plan(plans), self.norm(numeric)], dim=-1))
        return self.head(h)
