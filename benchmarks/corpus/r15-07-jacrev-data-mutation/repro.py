# Source: https://github.com/pytorch/pytorch/issues/94514 (reporter's script, issue description)
import torch
from torch.func import jacrev, jacfwd

torch.manual_seed(420)

p = torch.nn.Parameter(torch.ones(2, 3))

def func(p):
    p.data = torch.ones(1, 2, 3) * 2
    return p

jacrev(func)(p)
