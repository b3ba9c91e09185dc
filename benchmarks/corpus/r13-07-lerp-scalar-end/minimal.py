import torch
torch.lerp(torch.zeros(1), 1, torch.zeros(1))
