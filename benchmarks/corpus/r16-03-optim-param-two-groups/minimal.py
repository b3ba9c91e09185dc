import torch
x = torch.zeros(1, requires_grad=True)
torch.optim.SGD(params=[dict(params=x), dict(params=x)], lr=0.1)
