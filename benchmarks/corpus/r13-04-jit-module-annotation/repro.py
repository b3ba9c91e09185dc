# Quoted from https://github.com/pytorch/pytorch/issues/33396
# ("PyTorch 1.4.0 does not support using `Module` or `ModuleList` in attribute annotations",
#  haowen-xu, 2020-02-16).
# Unchanged except these header comments; runs on CPU as posted.
import torch
from torch import Tensor, zeros
from torch.nn import Module, Linear, ModuleList
from torch.jit import script


class MyModule(torch.nn.Module):

    __constants__ = ('wrapped',)

    wrapped: Module

    def __init__(self, wrapped: Module):
        super().__init__()
        self.wrapped = wrapped

    def forward(self, input: Tensor):
        return self.wrapped(input)


m = script(MyModule(Linear(3, 3)))
