import torch
from torch import nn
from torch.export import export, Dim, ExportedProgram

class Basic(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.lstm = nn.LSTM(320,64,num_layers=1, bidirectional=False, batch_first=True)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x, _  = self.lstm(x)
        return x


example_args = (torch.randn(1,100,320),)
dim1_x = Dim("dim1_x", min=6, max=100000)
dynamic_shapes = {"x": {1: dim1_x}}
aten_dialect: ExportedProgram = export(
    Basic(), example_args, dynamic_shapes=dynamic_shapes
)
print(aten_dialect)
