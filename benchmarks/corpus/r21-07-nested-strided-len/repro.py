import torch

t = torch.nested.nested_tensor([torch.zeros(2)])
len(t)
