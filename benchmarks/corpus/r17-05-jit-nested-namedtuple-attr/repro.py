import torch

from typing import NamedTuple, List

class AA(NamedTuple):
    a: torch.Tensor

class BB(NamedTuple):
    a: AA

class MyModule(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.x = BB(AA(torch.rand(2, 2)))

    def forward(self, input: BB) -> torch.Tensor:
        return self.x.a.a

torch.jit.script(MyModule())
