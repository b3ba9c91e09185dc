import torch
class M(torch.nn.Module):
    w: torch.nn.Module
    def __init__(self):
        super().__init__()
        self.w = torch.nn.Linear(1, 1)
torch.jit.script(M())
