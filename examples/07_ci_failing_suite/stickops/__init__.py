"""A tiny model of a Spyre-like memory layout: the innermost dimension lives in 128-byte *sticks*.

A float16 stick holds 64 elements. ``stick_copy`` copies a tensor stick by stick (the way a device DMA
would) and zero-fills what is left of the last stick; ``to_sticks`` views a 1-D tensor as rows of
sticks. Both carry a bug that only shows for sizes that are not a multiple of a stick.
"""

import torch

STICK_BYTES = 128


def elems_per_stick(dtype: torch.dtype) -> int:
    return STICK_BYTES // torch.tensor([], dtype=dtype).element_size()


def stick_count(numel: int, dtype: torch.dtype = torch.float16) -> int:
    """Sticks needed to hold ``numel`` elements (BUG: rounds down)."""
    return numel // elems_per_stick(dtype)


def stick_copy(x: torch.Tensor) -> torch.Tensor:
    """Copy ``x`` (1-D) stick by stick into a fresh tensor."""
    per = elems_per_stick(x.dtype)
    out = torch.zeros_like(x)
    for s in range(stick_count(x.numel(), x.dtype)):
        out[s * per:(s + 1) * per] = x[s * per:(s + 1) * per]
    return out


def to_sticks(x: torch.Tensor) -> torch.Tensor:
    """View a 1-D tensor as ``[sticks, per_stick]`` (BUG: no padding of the last stick)."""
    return x.view(-1, elems_per_stick(x.dtype))
