import torch

from stickops import stick_copy


def test_stick_copy_matches_clone():
    x = torch.randn(65)
    torch.testing.assert_close(stick_copy(x), x.clone())
