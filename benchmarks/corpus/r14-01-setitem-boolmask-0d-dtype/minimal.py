import torch
x = torch.tensor(0, dtype=torch.float64)
x[x == 0] = torch.tensor(1.0)
