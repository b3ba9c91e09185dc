# Source: https://github.com/pytorch/pytorch/issues/184890 (reporter's script, issue description)
import torch
from torch import nn

model = nn.Sequential(nn.Linear(4, 4), nn.BatchNorm1d(4), nn.Linear(4, 1))
with torch.autocast("cpu", dtype=torch.float16):
    output = model(torch.randn(8, 4)).squeeze()

def get_vjp(v: torch.Tensor) -> torch.Tensor:
    return torch.autograd.grad(output, list(model.parameters()), grad_outputs=v)[0]

torch.vmap(get_vjp)(torch.eye(8))
