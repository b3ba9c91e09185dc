import torch
w = torch.ones(2, 1, requires_grad=True)
losses = w.sum(1)
torch.func.vmap(lambda l: torch.autograd.grad(l, w))(losses)
