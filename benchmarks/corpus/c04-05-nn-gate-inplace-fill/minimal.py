import torch

x = torch.randn(2, 3, requires_grad=True)
present = torch.tensor([[True, False, True], [True, True, False]])
gate = torch.sigmoid(x)
gate.masked_fill_(~present, 0.0)
gate.sum().backward()
