import torch
from torch.autograd.functional import jacobian
from torch.func import jacrev, jacfwd

torch.manual_seed(420)

x = torch.sparse.FloatTensor(5, 5)
y = torch.randn(5, 5)
z = torch.randn(5, 5)

def func(x, y, z):
    x.addmm_(y, z)
    return x

func(x, y, z)
