import torch
import torch.nn.functional as F

q = torch.rand(1, 1, 4, 8, requires_grad=True)
k = torch.rand(1, 1, 4, 8)
v = torch.rand(1, 1, 4, 8)
out = F.scaled_dot_product_attention(q, k, v)
g = torch.autograd.grad(out.sum(), q, create_graph=True)[0]
g.sum().backward()
