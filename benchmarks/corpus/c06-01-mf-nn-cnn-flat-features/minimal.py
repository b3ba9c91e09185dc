import torch
from torch import nn


class Cfg:
    image_size, channels = 32, (16, 32, 32)

    def __init__(self):
        side = self.image_size // 2 ** len(self.channels)
        self.flat = self.channels[-1] * side * side


cfg = Cfg()
convs = [nn.Conv2d(3, 16, 3, stride=1, padding=1), nn.Conv2d(16, 32, 3, stride=2, padding=1),
         nn.Conv2d(32, 32, 3, stride=2, padding=1)]
head = nn.Sequential(nn.Flatten(), nn.Linear(cfg.flat, 64))
head(nn.Sequential(*convs)(torch.rand(16, 3, 32, 32)))
