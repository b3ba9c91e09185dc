import numpy as np
import torch
from torch import nn

matrix = np.array([[1.0, 2.0, 3.0]], dtype=np.float64)
features = torch.from_numpy(matrix)
nn.Linear(3, 1)(features)
