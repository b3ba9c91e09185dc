import copy, torch
from torch.nn.utils import prune
m = torch.nn.Linear(2, 2)
prune.l1_unstructured(m, "weight", 0.5)
copy.deepcopy(m)
