import torch
from torch import nn


class SeededNoise(nn.Module):
    def forward(self, x):
        gen = torch.Generator(device=x.device)
        gen.manual_seed(1234)
        return x + torch.randn(x.shape, generator=gen)


torch.compile(SeededNoise(), backend="eager", fullgraph=True)(torch.randn(2, 3))
