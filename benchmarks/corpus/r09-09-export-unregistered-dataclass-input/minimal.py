from dataclasses import dataclass
import torch
@dataclass
class MyStaticInput:
    a: int
torch.export.export(torch.nn.Identity(), (MyStaticInput(1),))
