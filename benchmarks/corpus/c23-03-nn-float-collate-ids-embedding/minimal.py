import torch
from torch import nn

tokens = torch.zeros(2, 4)  # padded batch of token ids, filled row by row
tokens[0, :3] = torch.tensor([5, 7, 9])
nn.Embedding(10, 4, padding_idx=0)(tokens)
