import torch
from torch import nn


class SomeModel(nn.Module[torch.Tensor]):
    def __init__(self):
        super().__init__()

    def forward(self, input_tensor: torch.Tensor) -> torch.Tensor:
        return input_tensor
