import torch
from typing import NamedTuple

class Params(NamedTuple):
    p1: float
    p2: int

class M(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.params = Params(1.0, 2)

    def forward(self):
        return self.params.p1

torch.jit.script(M())
