import torch
from torch import nn


def conv_out(size, kernel, stride=1, padding=0):
    return (size - kernel) // stride + 1


h, w = conv_out(40, 3, 2, 1), conv_out(101, 3, 2, 1)
net = nn.Sequential(nn.Conv2d(1, 32, 3, stride=2, padding=1), nn.Flatten(), nn.Linear(32 * h * w, 64))
net(torch.randn(8, 1, 40, 101))
