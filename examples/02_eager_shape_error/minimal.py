import torch

linear = torch.nn.Linear(3136, 128)
x = torch.randn(64, 576)
linear(x)
