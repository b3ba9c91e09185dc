import torch
import torch.nn as nn
from functorch import make_functional, vmap, grad

class TestNetwork(nn.Module):
  def __init__(self):
    super().__init__()
    self.net = nn.Linear(5, 5)
  def forward(self, x):
    x = self.net(x)
    print(x.shape)
    print("Should be (10,5)")
    x[:, 0] += 3
    return x

model = TestNetwork()
data = torch.randn(10,5)
targets = torch.randn(10, 5)

func_model, params = make_functional(model)

def compute_loss(params, data, targets):
    preds = func_model(params, data)
    return torch.mean((preds - targets) ** 2)

# This seems fine.
grad(compute_loss)(params, data, targets)

# This breaks
per_sample_grads = vmap(grad(compute_loss), (None, 0, 0))(params, data, targets)
