import torch
from torch import nn

def fn(tensor):
    return nn.init.trunc_normal_(
        tensor, mean=0.0, std=1.0, a=-1.0, b=1.0
    )

torch.manual_seed(123)
print("eager shape:", fn(torch.empty(8)).shape)

torch.manual_seed(123)
compiled = torch.compile(fn, backend="inductor", fullgraph=True)
print("compiled shape:", compiled(torch.empty(8)).shape)
