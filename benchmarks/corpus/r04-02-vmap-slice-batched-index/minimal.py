import torch
torch.vmap(lambda r, i: r[i:i + 2])(torch.randn(4, 10), torch.arange(4))
