import torch


def func(x):
    for i in torch.arange(x):
        pass
    return None

y = torch.tensor([3, 3])
torch.vmap(func)(y)
