import torch


class MyModule(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.act = torch.nn.ReLU()

    def forward(self, x):
        xx = 0
        if x.sum() > 0:
            xx = x
            xx = self.act(xx)
        return xx


torch.jit.script(MyModule())
