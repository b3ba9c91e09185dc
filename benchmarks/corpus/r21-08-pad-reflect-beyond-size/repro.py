import torch
torch.nn.functional.pad(torch.randn(1, 1, 128), pad=[0, 256], mode='reflect')
