import torch
def f(a):
    b = a * 2
    b.storage()
    return b
torch.func.jacrev(f)(torch.zeros(3))
