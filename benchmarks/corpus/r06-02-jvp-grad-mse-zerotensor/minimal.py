import torch

x = torch.randn(4, 3)
y = torch.randn(4)


def loss(w):
    return torch.nn.functional.mse_loss(x @ w, y)


w = torch.randn(3)
torch.func.jvp(torch.func.grad(loss), (w,), (torch.randn(3),))
