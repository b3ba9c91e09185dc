import torch
from enum import Enum
from typing import Optional


class Modes(Enum):
    NEAREST = 0
    BILINEAR = 1
    
    @staticmethod
    def from_int(i: int) -> "Modes":
        return Modes.NEAREST


def func(x: torch.Tensor, resample: Optional[int] = None) -> torch.Tensor:

    mode = Modes.from_int(resample)
    
    if mode == Modes.NEAREST:
        return x + 1
    elif mode == Modes.BILINEAR:
        return x + 2
    else:
        return x

if __name__ == "__main__":
 
    s_from_int = torch.jit.script(Modes.from_int)

    s_func = torch.jit.script(func)
    y = s_func(torch.rand(3, 4), Modes.NEAREST)
