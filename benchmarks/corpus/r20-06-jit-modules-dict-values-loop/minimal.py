import torch
class Demo1(torch.nn.Module):
    def forward(self, x):
        for module in self._modules.values():
            x = module(x)
        return x
torch.jit.script(Demo1())
