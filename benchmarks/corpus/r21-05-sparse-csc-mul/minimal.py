import torch
x = torch.rand(2, 2).to_sparse_csc()
x * x
