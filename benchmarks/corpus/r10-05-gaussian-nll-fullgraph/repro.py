import torch
import torch.nn.functional as F

def fn(input, target, var):
    return F.gaussian_nll_loss(input, target, var)

input = torch.zeros(2, 3)
target = torch.ones(2, 3)
var = torch.ones(2, 3)

print("eager:", fn(input, target, var))
compiled = torch.compile(fn, backend="inductor", fullgraph=True)
print("compiled:", compiled(input, target, var))
