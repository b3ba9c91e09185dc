import torch
import torch.nn as nn

nn.Conv2d(1, 1, (1, 3), bias=False)(torch.rand(1, 1, 1, 6).double())
