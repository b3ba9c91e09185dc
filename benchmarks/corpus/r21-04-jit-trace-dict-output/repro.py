import torch
torch.jit.trace(lambda x: {'out': x}, torch.arange(3))
