# Quoted from https://github.com/pytorch/pytorch/issues/150017
# ("`__setitem__` with bool mask and dtype mismatch fails for scalar arrays", crusaderky, 2025-03-26).
# Unchanged except these header comments; runs on CPU as posted.
import torch as xp

x = xp.asarray([0], dtype=xp.float64)
x[x==0] = xp.asarray(1, dtype=xp.float32)  # OK

x = xp.asarray(0, dtype=xp.float64)
x[()] = xp.asarray(1, dtype=xp.float32)  # OK
x[x==0] = xp.asarray(1, dtype=xp.float64)  # OK
x[x==0] = xp.asarray(1, dtype=xp.float32)  # error
# RuntimeError: Index put requires the source and destination dtypes match, got Double for the destination and Float for the source.
