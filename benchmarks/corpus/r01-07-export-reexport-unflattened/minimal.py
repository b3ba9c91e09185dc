import torch

# Helper-reduced from the reporter's "Minimal reproduction" (no smaller repro in the thread).
x = torch.rand(2, 2)
ep = torch.export.export(torch.nn.Linear(2, 2), (x,), dynamic_shapes=({0: torch.export.Dim.DYNAMIC},))
torch.export.export(torch.export.unflatten(ep), (x,), dynamic_shapes=({0: torch.export.Dim.DYNAMIC},))
