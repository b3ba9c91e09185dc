import torch

class Inner(torch.nn.Module):
    def forward(self):
        return torch.ones(1)

class Outer(torch.nn.Module):
    def __init__(self, inner):
        super().__init__()
        self.inner = inner

    def forward(self):
        return self.inner()

    @torch.jit.export
    def get_inner(self):
        return self.inner

outer1 = torch.jit.script(Outer(Inner()))
torch.jit.script(Outer(outer1.get_inner()))
