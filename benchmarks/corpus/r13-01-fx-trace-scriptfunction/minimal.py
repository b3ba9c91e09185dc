import torch
@torch.jit.script
def f(x):
    return x
torch.fx.symbolic_trace(lambda x: f(x))
