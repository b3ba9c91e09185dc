import torch
from torch import nn

steps = torch.arange(4)
hour = steps % 24
weekday = steps % 7
feats = torch.stack([hour, weekday], dim=-1)
nn.Linear(2, 8)(feats)
