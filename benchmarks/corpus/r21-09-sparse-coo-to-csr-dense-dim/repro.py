import torch
torch.ones(2, 2, 2).to_sparse(2).to_sparse(layout=torch.sparse_csr, dense_dim=1)
