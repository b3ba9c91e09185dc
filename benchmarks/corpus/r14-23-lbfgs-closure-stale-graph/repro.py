# Quoted from https://github.com/pytorch/pytorch/issues/111369
# ("torch.optim.LBFGS error", ok69531, code block posted in the reporter's comment of 2023-10-17
# after the description showed it as a screenshot). Unchanged except these header comments; runs on CPU as posted.
import torch
from torch import nn, optim

x = torch.rand(size = (100, 10))
y = torch.rand(size = (100, 1))

class LinearRegression(nn.Module):
  def __init__(self, p):
    super(LinearRegression, self).__init__()

    self.p = p
    self.lin = nn.Linear(p, 1)

  def forward(self, x):
    output = self.lin(x)
    return output

model = LinearRegression(x.size(1))
optimizer = optim.LBFGS(model.parameters())
criterion = nn.MSELoss()

pred = model(x)

def closure():
  optimizer.zero_grad()
  loss = criterion(pred, y.view(pred.shape))
  loss.backward()
  return loss

optimizer.step(closure)
