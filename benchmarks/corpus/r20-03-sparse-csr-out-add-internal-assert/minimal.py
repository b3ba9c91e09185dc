import torch
torch.add(torch.ones(2, 2), torch.ones(2, 2), out=torch.eye(2).to_sparse_csr())
