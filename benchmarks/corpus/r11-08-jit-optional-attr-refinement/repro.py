import torch
from torch import jit
from typing import Optional
class M(torch.jit.ScriptModule):
    def __init__(self):
        super(M, self).__init__()
        self.id = jit.Attribute(2, Optional[int])

    @jit.script_method
    def forward(self):
        a = 2
        if self.id is not None:
            a += self.id

m = M()
