import torch
opt = torch.optim.SGD([torch.zeros(1, requires_grad=True)], lr=0.1)
torch.optim.lr_scheduler.MultiplicativeLR(opt, lambda e: 0.95, last_epoch=1)
