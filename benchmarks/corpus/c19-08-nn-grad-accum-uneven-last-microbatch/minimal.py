import math

import torch
import torch.nn.functional as F
from torch import nn


def main():
    torch.manual_seed(2)
    model = nn.Sequential(nn.Linear(6, 16), nn.ReLU(), nn.Linear(16, 1))
    g = torch.Generator().manual_seed(5)
    x = torch.randn(10, 6, generator=g)
    y = 1.5 * x[:, 0] + 0.5 * x[:, 1] - 0.8 * x[:, 4] + 0.1 * torch.randn(10, generator=g)
    steps = math.ceil(len(x) / 4)
    for start in range(0, len(x), 4):
        loss = F.mse_loss(model(x[start:start + 4]).squeeze(-1), y[start:start + 4]) / steps
        loss.backward()
    acc = {"w": model[0].weight.grad.clone()}
    model.zero_grad()
    F.mse_loss(model(x).squeeze(-1), y).backward()
    full = {"w": model[0].weight.grad}
    for name in full:
        torch.testing.assert_close(acc[name], full[name])


main()
