import torch


@torch.compile(backend="eager", fullgraph=True)
def encode(x):
    if not torch.isfinite(x).all():
        raise FloatingPointError("non-finite values")
    return x * 2


encode(torch.ones(2))
