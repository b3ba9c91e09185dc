import pytest
import torch
from stickops import stick_copy, to_sticks


@pytest.mark.parametrize("size", [64, 128, 65, 130])
def test_stick_copy_matches_clone(size, half):
    x = torch.randn(size, dtype=half)
    torch.testing.assert_close(stick_copy(x), x.clone())


def test_stick_copy_keeps_dtype(half):
    x = torch.ones(64, dtype=half)
    assert stick_copy(x).dtype == half


def test_to_sticks_exact(half):
    x = torch.arange(128, dtype=half)
    assert to_sticks(x).shape == (2, 64)


@pytest.mark.parametrize("size", [65])
def test_to_sticks_padded(size, half):
    x = torch.arange(size, dtype=half)
    sticks = to_sticks(x)
    assert sticks.shape == (2, 64)
