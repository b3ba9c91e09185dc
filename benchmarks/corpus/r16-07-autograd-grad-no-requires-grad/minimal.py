import torch
a = torch.ones(2)
b = torch.ones(2, requires_grad=True)
torch.autograd.grad((a * b).sum(), [a, b], allow_unused=True)
