import torch
torch.rand((3,), dtype=torch.int32)
