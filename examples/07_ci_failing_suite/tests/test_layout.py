import unittest

import torch
from stickops import elems_per_stick, stick_count


class TestLayout(unittest.TestCase):
    def test_elems_per_stick(self):
        self.assertEqual(elems_per_stick(torch.float16), 64)
        self.assertEqual(elems_per_stick(torch.float32), 32)

    def test_stick_count_rounds_up(self):
        for numel, sticks in [(64, 1), (65, 2), (1, 1)]:
            self.assertEqual(stick_count(numel), sticks, f"numel={numel}")


if __name__ == "__main__":
    unittest.main()
