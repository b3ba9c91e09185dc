import torch
def f(x):
    return (x.size(0),) + torch.Size([2])
torch.fx.symbolic_trace(f)
