import torch

t = 1 + 3 * torch.rand(20, 1, requires_grad=True)

t.sum().backward()
t.sum().backward()
