import torch


class M(torch.nn.Module):
    def forward(self, x):
        return sum(x.size())


torch.fx.symbolic_trace(M())
