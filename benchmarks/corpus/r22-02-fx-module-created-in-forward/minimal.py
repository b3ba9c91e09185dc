import torch
class M(torch.nn.Module):
    def forward(self, x):
        return torch.nn.ReLU()(x)
torch.fx.symbolic_trace(M())
