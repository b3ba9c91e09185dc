import torch
from torch.fx import symbolic_trace

class M(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.bn = torch.nn.BatchNorm2d(100)

    def forward(self, x: torch.Tensor):
        return torch.add(x, x)

m = torch.jit.script(M())
traced = symbolic_trace(m)
