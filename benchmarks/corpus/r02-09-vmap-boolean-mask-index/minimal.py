import torch

torch.vmap(lambda mask: torch.ones(2)[mask])(torch.ones(3, 2, dtype=torch.bool))
