import torch

a=torch.zeros(2, dtype=torch.int, device='cpu')
b=a.histc(bins=2, min=0, max=1)
