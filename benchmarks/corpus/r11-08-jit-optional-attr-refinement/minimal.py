import torch
from typing import Optional
class M(torch.jit.ScriptModule):
    def __init__(self):
        super().__init__()
        self.id = torch.jit.Attribute(2, Optional[int])
    @torch.jit.script_method
    def forward(self):
        if self.id is not None:
            return 2 + self.id
M()
