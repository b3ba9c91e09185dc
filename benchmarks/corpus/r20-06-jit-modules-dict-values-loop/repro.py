import torch
import torch.nn as nn


class Demo1(nn.Module):
    def __init__(self):
        super().__init__()
        self.add_module('linear',nn.Linear(3, 64, bias=True))

    def forward(self, x):
        for module in self._modules.values():
            x = module(x)
        return x

if __name__ == '__main__':
    model = Demo1()
    script_module = torch.jit.script(model)
