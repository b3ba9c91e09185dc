import torch
from torch.func import functional_call, jacrev

model = torch.nn.BatchNorm1d(4)
weight = model.weight.detach().clone()
jacrev(lambda w: functional_call(model, {"weight": w}, torch.randn(8, 4)))(weight)
