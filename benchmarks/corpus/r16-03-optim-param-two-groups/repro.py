import torch
x = torch.zeros((1,), requires_grad=True)
a = torch.optim.SGD(params=[dict(params=x), dict(params=x)], lr=0.1)
x.sum().backward()
a.step()
print(x)
