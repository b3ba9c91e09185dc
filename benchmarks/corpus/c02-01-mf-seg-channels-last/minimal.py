import numpy as np
import torch
from torch import nn


def to_tensor(image, mask):
    return torch.from_numpy(image).float().div(255.0), torch.from_numpy(mask).long()


image, mask = to_tensor(np.zeros((64, 64, 3), dtype=np.uint8), np.zeros((64, 64), dtype=np.int64))
nn.Conv2d(3, 16, 3, padding=1)(image.unsqueeze(0))
