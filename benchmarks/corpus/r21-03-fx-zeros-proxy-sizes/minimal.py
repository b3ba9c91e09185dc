import torch
class M(torch.nn.Module):
    def forward(self, x):
        return torch.zeros(x.size(0), x.size(1))
torch.fx.symbolic_trace(M())
