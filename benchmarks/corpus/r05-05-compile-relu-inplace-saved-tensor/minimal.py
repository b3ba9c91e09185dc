import torch
f = torch.compile(lambda x: torch.relu_(torch.relu(x)))
f(torch.randn(10, requires_grad=True))
