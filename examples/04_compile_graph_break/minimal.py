import torch


def f(x):
    if x.any():
        x = x + 1
    return x


compiled = torch.compile(f, fullgraph=True)
compiled(torch.ones(4))
