import torch

class Model(torch.nn.Module):
    def forward(self, **kwargs):
        return kwargs["x"]

x = torch.randn(2, 3)
ds = {"kwargs": {"x": {0: torch.export.Dim("batch")}}}
torch.export.export(Model(), (), kwargs={"x": x}, dynamic_shapes=ds)
