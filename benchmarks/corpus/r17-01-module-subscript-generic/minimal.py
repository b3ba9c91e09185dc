import torch

class M(torch.nn.Module[torch.Tensor]):
    pass
