import torch
import functorch

net = torch.nn.BatchNorm2d(10)
net.train()
t = torch.randn(3, 3, 10, 10)
functorch.jacrev(net)(t)
