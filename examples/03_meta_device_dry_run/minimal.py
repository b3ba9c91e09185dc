import torch

x = torch.empty(8, dtype=torch.long, device="meta")
torch.unique(x)
