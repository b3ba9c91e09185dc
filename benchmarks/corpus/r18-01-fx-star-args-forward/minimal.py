import torch
import torch.fx as fx

class Container(torch.nn.Module):
    def forward(self, *args):
        return torch.relu(*args)

fx.symbolic_trace(Container())
