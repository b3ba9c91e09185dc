import torch
torch.multinomial(torch.ones(2**24 + 1), 1)
