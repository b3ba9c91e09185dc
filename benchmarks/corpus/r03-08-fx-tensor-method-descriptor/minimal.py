import torch
torch.fx.symbolic_trace(lambda x: torch.Tensor.flatten(x))
