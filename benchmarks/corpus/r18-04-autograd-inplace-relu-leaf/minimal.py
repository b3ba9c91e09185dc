import torch
import torch.nn.functional as F

x = torch.randn(4, requires_grad=True)
F.relu(x, inplace=True)
