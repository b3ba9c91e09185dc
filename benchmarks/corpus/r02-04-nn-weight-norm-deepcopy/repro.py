import torch
import torch.nn as nn

from copy import deepcopy

net = nn.Sequential(nn.utils.weight_norm(nn.Linear(2, 3)), nn.Linear(3, 10))
net2 = deepcopy(net) # error out here
