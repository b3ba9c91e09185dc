import torch
from typing import NamedTuple

class AA(NamedTuple):
    a: torch.Tensor

class BB(NamedTuple):
    a: AA

class M(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.x = BB(AA(torch.rand(2)))

    def forward(self):
        return self.x.a.a

torch.jit.script(M())
