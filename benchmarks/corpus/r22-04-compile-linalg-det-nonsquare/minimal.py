import torch
torch.compile(lambda x: torch.linalg.det(x))(torch.randn(1, 4))
