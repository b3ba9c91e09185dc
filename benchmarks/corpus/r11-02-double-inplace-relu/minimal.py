import torch
x = torch.randn(2, requires_grad=True) * 1
relu = torch.nn.ReLU(inplace=True)
relu(relu(x)).sum().backward()
