import torch
from torch.utils.data import random_split
whole_trainset = list(range(50000))
trainsets = random_split(whole_trainset, [0.05, 0.05, 0.05, 0.05, 0.05, 0.05, 0.05, 0.05, 0.05, 0.05, 0.05, 0.05, 0.05, 0.05, 0.05, 0.05, 0.05, 0.05, 0.05, 0.05])
