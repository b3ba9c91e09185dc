import torch
p = torch.nn.Parameter(torch.complex(torch.randn(2), torch.randn(2)))
p.grad = torch.ones_like(p)
torch.compile(torch.optim.SGD([p], foreach=True).step)()
