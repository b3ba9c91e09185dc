import torch
torch.ones(1, 1, 1).to_sparse(2).to_sparse(layout=torch.sparse_csr, dense_dim=1)
