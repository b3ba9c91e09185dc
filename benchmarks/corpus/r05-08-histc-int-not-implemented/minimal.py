import torch
torch.zeros(2, dtype=torch.int).histc(bins=2)
