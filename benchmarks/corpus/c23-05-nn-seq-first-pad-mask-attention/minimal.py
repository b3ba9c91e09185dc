import torch
from torch import nn
from torch.nn.utils.rnn import pad_sequence

pad_flags = [torch.zeros(n, dtype=torch.bool) for n in [20] + [5] * 15]  # 16 sessions, longest 20
key_padding_mask = pad_sequence(pad_flags, padding_value=True)
x = torch.randn(16, 20, 32)
nn.MultiheadAttention(32, 4, batch_first=True)(x, x, x, key_padding_mask=key_padding_mask)
