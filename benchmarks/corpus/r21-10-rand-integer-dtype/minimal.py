import torch
torch.rand(1, dtype=torch.int32)
