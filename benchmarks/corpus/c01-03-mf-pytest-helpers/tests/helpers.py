"""Shared test utilities: deterministic fake batches."""
import torch


def make_logits(batch, seq, classes, seed=0):
    g = torch.Generator().manual_seed(seed)
    return torch.randn(batch, seq, classes, generator=g)


def make_targets(batch, seq, classes, seed=1):
    g = torch.Generator().manual_seed(seed)
    return torch.randint(0, classes, (batch, seq), generator=g).to(torch.float32)


def make_mask(batch, seq, keep=0.75, seed=2):
    g = torch.Generator().manual_seed(seed)
    return torch.rand(batch, seq, generator=g) < keep
