import torch
from torch.nn.utils.rnn import pack_padded_sequence
pack_padded_sequence(torch.zeros(0, 0), torch.tensor([], dtype=torch.int64), batch_first=True, enforce_sorted=False)
