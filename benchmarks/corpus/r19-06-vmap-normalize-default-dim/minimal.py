import torch
torch.func.vmap(torch.nn.functional.normalize)(torch.randn(3, 2))
