import torch
f = lambda x: torch.sum(torch.mm(torch.mm(torch.prod(x) + x, torch.sum(x) + x), torch.sum(x) + x))
torch.compile(torch.func.jacfwd(f))(torch.ones(3, 3, dtype=torch.half))
