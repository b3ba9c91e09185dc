# test1.py
import backend
import torch

@torch.jit.script
def f(a):
    return backend.bkd.trace(a)
