import torch
class M(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.mods = torch.nn.ModuleList([torch.nn.Identity()])
    def forward(self, x):
        for m in self.mods[:1]:
            m(x)
torch.jit.script(M())
