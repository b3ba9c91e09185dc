import torch

class Temp(torch.Tensor):
    pass

torch.zeros(0).to_sparse_coo()

Temp(torch.zeros(0)).to_sparse_coo()
