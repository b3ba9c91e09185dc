import torch

torch.vmap(lambda x: torch.autograd.functional.vjp(torch.exp, x, torch.ones(2)))(torch.ones(3, 2))
