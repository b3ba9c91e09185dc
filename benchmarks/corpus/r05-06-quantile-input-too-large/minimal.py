import torch
x = torch.randn((17_000_000))
q = x.quantile(torch.tensor([0.1,0.5]))
