# backend.py
import torch
class bk:
    def __init__(self):
        pass
    def trace(self, a):
        return torch.trace(a)

bkd = bk()
