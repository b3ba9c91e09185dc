from typing import NamedTuple, Optional

import torch


class S(NamedTuple):
    s: Optional[int]


@torch.jit.script
def f(x: torch.Tensor, s: S):
    if s.s is not None:
        return x[s.s]
    return x[0]
