import numpy as np
import torch
from torch import nn


class PositionalEncoding(nn.Module):
    def __init__(self):
        super().__init__()
        table = np.sin(np.arange(16.0).reshape(4, 4))
        self.register_buffer("pos_table", torch.from_numpy(table).unsqueeze(0))


x = torch.zeros(2, 4, 4).transpose(1, 2) + PositionalEncoding().pos_table
nn.Linear(4, 12)(x)
