import torch
x = torch.randn(9000 * 5000).abs()
out = torch.multinomial(x, 10, replacement=True)
