import torch
len(torch.nested.nested_tensor([torch.zeros(2)]))
