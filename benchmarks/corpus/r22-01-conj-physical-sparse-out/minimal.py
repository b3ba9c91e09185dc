import torch
torch.conj_physical(torch.randn(3, 3, dtype=torch.complex64), out=torch.sparse_coo_tensor((3, 3), dtype=torch.complex64))
