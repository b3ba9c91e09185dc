import torch
torch.optim.lr_scheduler.CosineAnnealingWarmRestarts(torch.optim.SGD([torch.zeros(1, requires_grad=True)], lr=0.1), T_0=100, T_mult=2.0)
