import torch


class DummyModel(torch.nn.Module):
    def forward(self, start, end):
        return start + end


kwargs = {"start": torch.ones(4), "end": torch.ones(4)}
dynamic_shapes = {"end": {0: torch.export.Dim("end_dim")}}
torch.export.export(DummyModel(), (), kwargs, dynamic_shapes=dynamic_shapes)
