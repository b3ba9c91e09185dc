import torch

torch.compile(torch.nn.functional.gaussian_nll_loss, fullgraph=True)(torch.zeros(1), torch.ones(1), torch.ones(1))
