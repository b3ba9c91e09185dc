import torch
import torch.nn.functional as F

F.pad(torch.rand(2, 1, 256), (256, 0), mode="reflect")
