import torch

class M(torch.nn.Module):
    def forward(self, x):
        return x

torch.fx.symbolic_trace(torch.jit.script(M()))
