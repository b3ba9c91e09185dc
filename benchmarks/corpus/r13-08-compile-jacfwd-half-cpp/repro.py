# Quoted from https://github.com/pytorch/pytorch/issues/194706
# ("Inductor CPU backend emits error when calculating gradients", shadow-orange41, 2026-08-25).
# Unchanged except these header comments; runs on CPU as posted (needs a C++ compiler for Inductor).
import torch

def f(x):
    return torch.sum(torch.mm(torch.mm(torch.prod(x) + x,
                                       torch.sum(x) + x),
                              torch.sum(x) + x))

x = (torch.arange(1, 10, dtype=torch.float16) / 10).reshape(3, 3)
torch.compile(torch.func.jacfwd(f))(x)      
