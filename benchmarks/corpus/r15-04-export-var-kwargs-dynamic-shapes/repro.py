# Source: https://github.com/pytorch/pytorch/issues/150022 (reporter's script, issue description)
import torch

class Model(torch.nn.Module):
    def forward(self, **kwargs):
        return kwargs["x"] + kwargs["y"]

x, y = torch.randn(2, 3), torch.randn(2, 3)
Model()(x=x, y=y)
ds = {
    "kwargs": {
        "x": {0: torch.export.Dim("batch")},
        "y": {0: torch.export.Dim("batch")},
    }
}
ep = torch.export.export(Model(), tuple(), kwargs={"x": x, "y": y}, dynamic_shapes=ds)
