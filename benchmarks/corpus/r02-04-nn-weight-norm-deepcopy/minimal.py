import copy
import torch

copy.deepcopy(torch.nn.utils.weight_norm(torch.nn.Linear(2, 3)))
