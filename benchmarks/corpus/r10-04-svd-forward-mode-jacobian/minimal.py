import torch

a = torch.eye(2, dtype=torch.cfloat)
torch.autograd.functional.jacobian(torch.svd, a, vectorize=True, strategy="forward-mode")
