import torch
import torch.nn as nn
import functorch
import functools

model = nn.Sequential(nn.Linear(3, 4), nn.BatchNorm1d(4), nn.Linear(4, 5), nn.Softmax(dim=-1))
_input = torch.randn(32, 3)
weight = model[0].weight.clone()
weight.requires_grad_()


def func(param: torch.Tensor, _input: torch.Tensor = None):
    _output: torch.Tensor = torch.func.functional_call(
        model, {'0.weight': param}, _input)
    return _output  # (N, C)


jac: torch.Tensor = functorch.jacrev(functools.partial(func, _input=_input))(weight)
