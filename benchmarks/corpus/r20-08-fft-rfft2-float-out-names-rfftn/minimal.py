import torch
torch.fft.rfft2(torch.rand(4, 4), out=torch.empty(0))
