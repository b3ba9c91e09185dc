import torch
from torch import nn

v = torch.randn(2, 8).to(torch.bfloat16)
nn.Linear(8, 8)(v)
