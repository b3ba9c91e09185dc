import torch
from torch import nn
from torch.nn.utils.rnn import pack_padded_sequence


class PackedBiGRU(nn.Module):
    def __init__(self, dim, hidden):
        super().__init__()
        self.rnn = nn.GRU(dim, hidden, batch_first=True, bidirectional=True)

    def forward(self, x, lengths):
        packed = pack_padded_sequence(x, lengths.cpu(), batch_first=True)
        return self.rnn(packed)


PackedBiGRU(4, 3)(torch.randn(2, 3, 4), torch.tensor([2, 3]))
