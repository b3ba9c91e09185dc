from copy import deepcopy
import torch

p = torch.nn.Parameter(torch.randn(4, 4))
p.baz = "qux"
deepcopy(p).baz
