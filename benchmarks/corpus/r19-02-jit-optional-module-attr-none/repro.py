from typing import Optional
import torch
from torch import nn
    
class Model(nn.Module):
    op: Optional[nn.ReLU]
    
    def __init__(self, op=None):
        super().__init__()
        self.op = op
    
    def forward(self, input):
        if self.op is not None:
            input = self.op(input)
        return input
with_op = Model(nn.ReLU())
with_op_js = torch.jit.script(with_op)
noop = Model()
noop_js = torch.jit.script(noop)
