import torch

def f(x):
    return torch.Tensor.flatten(x)
    # return x.flatten()                    # works
    # return torch.Tensor.flip(x, dims=[0]) # fails too

torch.fx.symbolic_trace(f)  # fails
# torch.compile(f)          # works
