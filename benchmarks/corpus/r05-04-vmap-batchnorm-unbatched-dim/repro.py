from functorch import jacrev, vmap
import torch
from torch import nn

layers = nn.Sequential(
        nn.Conv2d(3, 3, kernel_size=(3, 3)),
        nn.BatchNorm2d(3, track_running_stats=False),
    )

x = torch.randn(4, 3, 30, 30)
j = vmap(jacrev(layers))(x)
