import torch
from torch import nn


class Propagator(nn.Module):
    def forward(self, h, hops):
        for _ in range(hops):
            h = 0.8 * h + 0.2
        return h


hops = torch.ceil(torch.log2(torch.tensor(200.0)) / 2).long()  # hop budget, computed with torch ops
torch.compile(Propagator(), backend="eager", fullgraph=True)(torch.ones(3), hops)
