import torch


def f(x):
    return x * sum(x.tolist())


torch.compile(f, fullgraph=True, backend="eager")(torch.randn(2))
