import torch
from torch.autograd.functional import jacobian

torch.manual_seed(420)
a = torch.randn(10, 10, dtype=torch.cfloat, requires_grad=True)

def func(a):
    r = torch.svd(a)
    return r

jacobian(func, (a, ), vectorize=True, strategy="forward-mode")
