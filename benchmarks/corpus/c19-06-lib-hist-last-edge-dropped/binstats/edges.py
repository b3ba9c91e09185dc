import math

import numpy as np


def auto_bins(n, rule="sturges"):
    if rule == "sturges":
        return int(math.ceil(math.log2(n))) + 1
    if rule == "sqrt":
        return int(math.ceil(math.sqrt(n)))
    raise ValueError(f"unknown rule {rule!r}")


def uniform_edges(values, bins):
    lo, hi = float(np.min(values)), float(np.max(values))
    if lo == hi:
        lo, hi = lo - 0.5, hi + 0.5
    return np.linspace(lo, hi, bins + 1)
