import torch
class Model(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.w = torch.nn.Parameter(torch.tensor(0.0))
        self._ccc = torch.zeros(())
    def forward(self, x):
        self.w.data.fill_(0.0)
        self._ccc += 1
        return x + 0
x = torch.ones(4)
torch.testing.assert_close(x, torch.compile(Model())(x))
