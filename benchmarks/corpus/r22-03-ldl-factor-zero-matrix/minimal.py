import torch
torch.linalg.ldl_factor(torch.zeros(2, 2))
