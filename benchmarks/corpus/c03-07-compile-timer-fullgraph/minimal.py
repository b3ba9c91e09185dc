import time

import torch


def forward(x):
    time.perf_counter()
    return x + 1


torch.compile(forward, fullgraph=True, backend="eager")(torch.randn(4))
