import torch
import torch.nn as nn

class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.w = nn.Parameter(torch.tensor(0.0))
        self._ccc = torch.zeros(())

    def forward(self, x):
        self.w.data.fill_(0.0)   # must come first
        self._ccc += 1           # must come second
        return torch.pow(x + 0, 1)

model = Model()
cmodel = torch.compile(Model())
x = torch.tensor([1., 2., 3., 4.])

out1 = model(x)
out2 = cmodel(x)

print(out1)  # tensor([1., 2., 3., 4.])
print(out2)  # tensor(1.)          <-- wrong shape, expected [4]
torch.testing.assert_close(out1, out2)  # fails
