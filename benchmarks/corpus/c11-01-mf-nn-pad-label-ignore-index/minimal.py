import torch
import torch.nn.functional as F
from torch.nn.utils.rnn import pad_sequence

batch = [(None, torch.tensor([1, 2])), (None, torch.tensor([3]))]
tags = pad_sequence([t for _, t in batch], batch_first=True, padding_value=-1)
F.cross_entropy(torch.randn(4, 5), tags.reshape(-1))
