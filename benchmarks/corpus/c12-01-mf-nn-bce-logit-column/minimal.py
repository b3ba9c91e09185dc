import torch
from torch import nn


class ChurnNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.head = nn.Linear(4, 1)

    def forward(self, h):
        return self.head(h)


logits = ChurnNet()(torch.randn(8, 4))
nn.BCEWithLogitsLoss()(logits, torch.ones(8))
