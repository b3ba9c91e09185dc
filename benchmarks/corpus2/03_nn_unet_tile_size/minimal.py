import torch
from torch import nn

skip = torch.randn(1, 8, 25, 25)
x = nn.ConvTranspose2d(8, 8, kernel_size=2, stride=2)(nn.MaxPool2d(2)(skip))
x = torch.cat([x, skip], dim=1)
