import torch
from torch import nn

class Net(nn.Module):
    def __init__(self):
        super(Net, self).__init__()

        self.stack = nn.Sequential(
            nn.Linear(2, 10),
            nn.Linear(10, 10),
            nn.Linear(10, 1)
        )

    def forward(self, x, t):
        X = torch.cat([t, x], axis=1)
        for layer in self.stack:
            X = layer(X)
        return X 

net = Net()
x = torch.FloatTensor(20, 1).uniform_(-1, 1)
x.requires_grad_()
t = 1 + 3 * torch.rand(20, 1, requires_grad=True)
t.requires_grad_()

opt = torch.optim.Adam(net.parameters(), lr=0.01)

loss = torch.mean(torch.square(net(x, t)))
opt.zero_grad()
loss.backward()
opt.step()

loss = torch.mean(torch.square(net(x, t)))
opt.zero_grad()
loss.backward()
opt.step()
