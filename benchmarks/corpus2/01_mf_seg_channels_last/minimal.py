import numpy as np
import torch
from torch import nn

image = np.zeros((64, 64, 3), dtype=np.uint8)
x = torch.from_numpy(image).float().div(255.0).unsqueeze(0)
nn.Conv2d(3, 16, 3, padding=1)(x)
