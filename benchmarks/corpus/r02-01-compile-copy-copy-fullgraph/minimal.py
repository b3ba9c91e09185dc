import copy
import torch

torch.compile(lambda x: copy.copy(x), fullgraph=True)(torch.rand(2))
