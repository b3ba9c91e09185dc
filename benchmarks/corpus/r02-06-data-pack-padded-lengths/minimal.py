import torch
from torch.nn.utils import rnn

packed = rnn.pack_padded_sequence(torch.randn(3, 5, 3), [4, 2, 3], enforce_sorted=False)
rnn.pad_packed_sequence(packed)
