import torch
class Fn(torch.autograd.Function):
    def forward(self, x):
        return x
Fn()(torch.zeros(1))
