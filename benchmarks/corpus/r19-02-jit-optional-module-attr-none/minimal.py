from typing import Optional
import torch
class Model(torch.nn.Module):
    op: Optional[torch.nn.ReLU]
    def __init__(self):
        super().__init__()
        self.op = None
    def forward(self, input):
        return input
torch.jit.script(Model())
