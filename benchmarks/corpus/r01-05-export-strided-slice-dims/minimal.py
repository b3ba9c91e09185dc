import torch

# The issue title's own formulation: "torch.export.export + dynamic shapes fails with x + y[::2]"
# (written out by the helper; the thread has no separate smaller script).
class Model(torch.nn.Module):
    def forward(self, x, z):
        return x + z[:, ::2]

dx = torch.export.Dim("dx")
dz = torch.export.Dim("dz")
torch.export.export(Model(), (torch.randn(2, 8), torch.randn(2, 16)), dynamic_shapes={"x": {1: dx}, "z": {1: dz}})
