import torch
torch.fx.symbolic_trace(torch.nn.BatchNorm1d(1))
