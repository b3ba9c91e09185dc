import torch
torch.nn.functional.pad(torch.zeros(1, 1, 128), [0, 256], mode='reflect')
