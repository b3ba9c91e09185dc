import torch


class DummyModel(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.a = torch.ones(4, 4)

    def forward(self, start, end):
        return start.sum() + end.sum()


f = DummyModel()
kwargs = {"start": torch.ones(4, 4), "end": torch.ones(4, 4)}
dynamic_shapes = {"end": {0: torch.export.Dim("end_dim")}}
ep = torch.export.export(f, (), kwargs, dynamic_shapes=dynamic_shapes)
