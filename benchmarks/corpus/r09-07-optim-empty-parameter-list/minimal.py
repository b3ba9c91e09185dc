import torch
torch.optim.Adam(torch.nn.Module().parameters())
