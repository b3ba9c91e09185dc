import torch
torch.nn.BatchNorm1d(3)(torch.ones(1, 3))
