import torch
from torch import nn


class Router(nn.Module):
    @torch.compiler.disable
    def record_load(self, choice):
        pass

    def forward(self, x):
        self.record_load(x)
        return x * 2


torch.compile(Router(), backend="eager", fullgraph=True)(torch.ones(3))
