import torch

a_p = torch.ones(3, 2).to_sparse_coo()
x = torch.zeros(2, requires_grad=True)
torch.mul(a_p, x).sum().backward()
