import pytest
import torch

from evalkit import label_smoothing_loss, masked_token_loss
from tests.helpers import make_logits, make_mask, make_targets


@pytest.mark.parametrize("smoothing", [0.0, 0.1, 0.3])
def test_label_smoothing_is_positive(smoothing):
    logits, target = make_logits(2, 5, 7), make_targets(2, 5, 7)
    assert label_smoothing_loss(logits, target, smoothing) > 0


def test_label_smoothing_zero_equals_nll():
    logits, target = make_logits(2, 5, 7), make_targets(2, 5, 7)
    expected = torch.nn.functional.cross_entropy(logits.reshape(-1, 7), target.long().reshape(-1))
    torch.testing.assert_close(label_smoothing_loss(logits, target, 0.0), expected)


def test_masked_loss_ignores_masked_positions():
    logits, target = make_logits(2, 6, 5), make_targets(2, 6, 5)
    mask = make_mask(2, 6)
    full = masked_token_loss(logits, target, torch.ones_like(mask))
    part = masked_token_loss(logits, target, mask)
    assert torch.isfinite(full) and torch.isfinite(part)


def test_masked_loss_all_masked_is_zero():
    logits, target = make_logits(1, 3, 4), make_targets(1, 3, 4)
    assert masked_token_loss(logits, target, torch.zeros(1, 3, dtype=torch.bool)) == 0
