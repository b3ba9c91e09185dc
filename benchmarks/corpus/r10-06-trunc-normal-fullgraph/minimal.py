import torch

torch.compile(torch.nn.init.trunc_normal_, fullgraph=True)(torch.empty(1))
