import torch
import torch.nn as nn


class ExampleModel(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(3,64,(3,3))

    def forward(self, x):
        x = self.conv1(x)
        x = nn.ReLU()(x)
        return x


torch.fx.symbolic_trace(ExampleModel())
