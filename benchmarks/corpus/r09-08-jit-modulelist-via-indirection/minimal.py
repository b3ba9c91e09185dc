import torch
class Sub(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.mods = torch.nn.ModuleList()
class M(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.submod = Sub()
    def forward(self):
        for m in [self.submod][0].mods:
            pass
torch.jit.script(M())
