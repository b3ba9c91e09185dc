import torch
class M(torch.nn.Module):
    def forward(self, x):
        for _ in range(x.shape[1]):
            pass
        return x
torch.fx.symbolic_trace(M())
