import torch

def branch(x):
    torch.tensor(0)  # works without this line
    return x.clone()

class Module(torch.nn.Module):
    def forward(self, x):
        return torch.cond(x.any(), branch, branch, (x,))

ep = torch.export.export(Module(), (torch.empty(()),))
ep.run_decompositions()
