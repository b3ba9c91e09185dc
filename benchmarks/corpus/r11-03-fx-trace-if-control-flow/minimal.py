import torch
class MyModule(torch.nn.Module):
    def forward(self, batch_idx=None):
        if batch_idx:
            pass
torch.fx.symbolic_trace(MyModule())
