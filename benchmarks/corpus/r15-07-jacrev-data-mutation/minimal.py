import torch

p = torch.nn.Parameter(torch.ones(2, 3))

def func(p):
    p.data = torch.ones(1, 2, 3)
    return p

torch.func.jacrev(func)(p)
