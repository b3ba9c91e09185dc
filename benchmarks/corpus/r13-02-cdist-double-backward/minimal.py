import torch
a = torch.randn(2, 2, requires_grad=True)
g, = torch.autograd.grad(torch.cdist(a, torch.randn(2, 2)).sum(), a, create_graph=True)
g.sum().backward()
