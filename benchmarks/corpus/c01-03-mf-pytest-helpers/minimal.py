import torch
import torch.nn.functional as F

target = torch.randint(0, 5, (12,)).to(torch.float32)
F.cross_entropy(torch.randn(12, 5), target, reduction="none")
