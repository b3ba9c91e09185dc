import torch

input_data = torch.randn(3, 3, dtype=torch.complex64)
output = torch.sparse_coo_tensor(input_data.shape, dtype=torch.complex64)
torch.conj_physical(input_data, out=output)
