import torch
s = torch.sparse_coo_tensor(torch.tensor([[0], [0]]), torch.ones(1), (2, 2))
torch.sspaddmm(s, s, torch.ones(2, 2), out=torch.zeros(2, 2))
