import torch
from torch import optim
optimizer = optim.SGD([torch.nn.Parameter(torch.zeros(1))], lr=0.1)
scheduler = optim.lr_scheduler.CosineAnnealingWarmRestarts(optimizer, T_0=100, T_mult=2.0)
