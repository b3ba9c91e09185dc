import torch
idx = torch.randint(5, (3,))
torch.vmap(lambda i: torch.arange(5)[i.item()])(idx)
