import torch

b, t, heads, dim = 2, 3, 4, 8
x = torch.randn(b, heads, t, dim // heads)
x.transpose(1, 2).view(b, t, dim)
