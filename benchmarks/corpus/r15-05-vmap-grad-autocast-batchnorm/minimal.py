import torch
lin, bn = torch.nn.Linear(4, 4), torch.nn.BatchNorm1d(4)
with torch.autocast("cpu", dtype=torch.float16):
    out = bn(lin(torch.randn(8, 4))).sum(1)
torch.vmap(lambda v: torch.autograd.grad(out, lin.weight, v)[0])(torch.eye(8))
