import torch
from torch import nn


class LoRALinear(nn.Module):
    def __init__(self, base, rank=4):
        super().__init__()
        self.base = base
        self.down = nn.Linear(base.in_features, rank, bias=False)
        self.up = nn.Linear(rank, base.out_features, bias=False)

    def forward(self, x):
        return self.base(x) + self.up(self.down(x))


model = nn.Sequential(nn.Linear(32, 32)).to(torch.bfloat16)
model[0] = LoRALinear(model[0])
model(torch.randn(2, 32, dtype=torch.bfloat16))
