import torch

m = torch.nn.Module()
m.cache = torch.nn.Parameter(torch.zeros(3), requires_grad=False)
m.cache = torch.roll(m.cache, 1)
