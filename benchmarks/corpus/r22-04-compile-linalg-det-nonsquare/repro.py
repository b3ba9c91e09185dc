import torch

@torch.compile
def fn_det(x):
    return torch.linalg.det(x)

out = fn_det(torch.randn(1, 4))

import torch

@torch.compile
def fn_eig(x):
    vals, vecs = torch.linalg.eig(x)
    return vals

out = fn_eig(torch.randn(4, 32))

import torch

@torch.compile
def fn_solve(a, b):
    return torch.linalg.solve(a, b)

a = torch.eye(4) + torch.randn(4, 4) * 0.01
b = torch.randn(1, 2)
out = fn_solve(a, b)
