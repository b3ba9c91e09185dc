import torch

@torch.jit.script
def sample():
    return 1 ++ 2
