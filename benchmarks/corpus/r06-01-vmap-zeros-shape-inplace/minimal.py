import torch


def f(x):
    out = torch.zeros(x.shape)
    out[0] = x[0]
    return out


torch.vmap(f)(torch.ones(4, 3))
