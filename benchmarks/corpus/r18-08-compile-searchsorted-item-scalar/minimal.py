import torch

torch._dynamo.config.capture_scalar_outputs = True

def f(s):
    return torch.searchsorted(s, s[-1].item() // 3)

torch.compile(f)(torch.tensor([0, 1, 3, 7]))
