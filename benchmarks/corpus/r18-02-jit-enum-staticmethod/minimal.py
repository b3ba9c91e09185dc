import torch
from enum import Enum


class Modes(Enum):
    NEAREST = 0

    @staticmethod
    def from_int(i: int) -> "Modes":
        return Modes.NEAREST


def func(resample: int) -> int:
    mode = Modes.from_int(resample)
    return resample


torch.jit.script(func)
