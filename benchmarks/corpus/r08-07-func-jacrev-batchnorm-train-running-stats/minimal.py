import torch

bn = torch.nn.BatchNorm1d(2)
torch.func.jacrev(bn)(torch.randn(3, 2))
