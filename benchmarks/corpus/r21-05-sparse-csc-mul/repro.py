import torch
x = torch.rand(3, 3).to_sparse_csr()
x * x
x_csc = x.to_sparse_csc()
x_csc * x_csc
