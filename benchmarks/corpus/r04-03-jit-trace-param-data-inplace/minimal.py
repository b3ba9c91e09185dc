import torch
class M(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.param = torch.nn.Parameter(torch.tensor(0.0))
    def forward(self, x):
        self.param.data += x
        return self.param
torch.jit.trace(M(), (torch.tensor(1.0),))
