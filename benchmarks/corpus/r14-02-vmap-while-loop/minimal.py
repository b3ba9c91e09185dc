import torch
torch.vmap(lambda x: torch.while_loop(lambda x: x.sum() < 1, lambda x: (x + 1,), (x,)))(torch.zeros(2))
