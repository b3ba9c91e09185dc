import torch

# Helper-reduced from the reporter's script (no smaller repro was posted in the thread).
class MyModule(torch.nn.Module):
    def forward(self, x, y):
        x = torch.nn.functional.interpolate(x, scale_factor=0.5)
        return torch.nn.functional.interpolate(x, scale_factor=2.0) + y

dim = torch.export.Dim("Dim", min=16, max=64)
x = torch.rand(1, 1, 32, 32)
torch.export.export(MyModule(), (x, x), dynamic_shapes={"x": {2: dim}, "y": {2: dim}})
