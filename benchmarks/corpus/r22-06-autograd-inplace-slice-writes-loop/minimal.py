import torch
x = torch.ones(1, requires_grad=True)
f = torch.zeros(10)
f[0] = 1
for i in range(1, 10):
    f[i] = f[i-1] * x
    f[i] = 1 / (1.0 + torch.exp(-f[i]))
torch.autograd.grad(f.sum(), [x])
