import torch
torch.randn(2).lu_solve(*torch.lu(torch.eye(2)))
