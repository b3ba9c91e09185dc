import torch
torch.jit.trace(lambda x: {'out': x}, torch.zeros(1))
