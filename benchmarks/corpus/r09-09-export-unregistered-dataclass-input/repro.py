from dataclasses import dataclass
import torch 

@dataclass
class MyStaticInput:
    int_1: int 
    int_2: int

class Foo(torch.nn.Module):
    def __init__(self):
        super().__init__()
    
    def forward(self, x, x1):
        return x + x1.int_1 + x1.int_2

torch.export.export(Foo(), (torch.randn(1), MyStaticInput(1, 2)), strict=False)
