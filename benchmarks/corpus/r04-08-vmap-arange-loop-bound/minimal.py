import torch
torch.vmap(torch.arange)(torch.tensor([3, 3]))
