import torch


class M(torch.nn.Module):
    def forward(self, x):
        return x + 1


batch = torch.export.Dim("batch", min=1, max=32)
torch.export.export(M(), (torch.randn(1, 4),), dynamic_shapes=({0: batch},))
