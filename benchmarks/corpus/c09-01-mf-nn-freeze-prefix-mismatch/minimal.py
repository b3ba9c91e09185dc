from dataclasses import dataclass

import torch
from torch import nn


@dataclass
class TrainConfig:
    trainable_prefixes: tuple = ("classifier.",)


class DefectNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.backbone = nn.Linear(4, 8)
        self.head = nn.Linear(8, 2)

    def forward(self, x):
        return self.head(self.backbone(x))


model = DefectNet()
for name, param in model.named_parameters():
    param.requires_grad = name.startswith(TrainConfig().trainable_prefixes)
model(torch.randn(2, 4)).sum().backward()
