import torch

indices = torch.tensor([[0, 1, 2], [2, 0, 1]])
values = torch.tensor([3, 4, 5], dtype=torch.float32)
sparse_tensor = torch.sparse_coo_tensor(indices, values, size=(3, 3))

quant_sparse = torch.quantize_per_tensor(sparse_tensor, scale=1.0, zero_point=0, dtype=torch.quint8)
