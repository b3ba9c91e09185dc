import torch
import unittest
from torch.nn.utils.rnn import pack_padded_sequence


class T(unittest.TestCase):
    def test_pack_padded_sequence_empty(self):
        sequences = torch.tensor([], dtype=torch.float32).reshape(0, 0)
        lengths = torch.tensor([], dtype=torch.int64)
        packed = pack_padded_sequence(sequences, lengths, batch_first=True, enforce_sorted=False)
        self.assertEqual(packed.data.numel(), 0)
        self.assertEqual(packed.batch_sizes.numel(), 0)

    def test_pack_padded_sequence_zero_length(self):
        sequences = torch.tensor([
            [0, 0, 0, 0],
            [1, 2, 3, 0],
            [4, 5, 0, 0]
        ], dtype=torch.float32)
        lengths = torch.tensor([0, 3, 2])
        packed = pack_padded_sequence(sequences, lengths, batch_first=True, enforce_sorted=False)
        self.assertEqual(packed.data.tolist(), [1, 4, 2, 5, 3])
        self.assertEqual(packed.batch_sizes.tolist(), [2, 2, 1])


T().test_pack_padded_sequence_empty()
T().test_pack_padded_sequence_zero_length()
