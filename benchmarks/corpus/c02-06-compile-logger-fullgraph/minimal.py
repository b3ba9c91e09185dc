import logging

import torch

log = logging.getLogger("tagger")


def f(x):
    log.debug("gate mean %.3f", x.mean())
    return x * 2


torch.compile(f, fullgraph=True, backend="eager")(torch.randn(3))
