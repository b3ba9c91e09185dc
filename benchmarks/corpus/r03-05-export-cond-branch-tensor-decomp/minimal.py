import torch
def b(x):
    torch.tensor(0)
    return x.clone()
class M(torch.nn.Module):
    def forward(self, x):
        return torch.cond(x.any(), b, b, (x,))
torch.export.export(M(), (torch.empty(()),)).run_decompositions()
