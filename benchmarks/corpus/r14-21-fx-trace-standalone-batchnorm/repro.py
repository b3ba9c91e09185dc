# Quoted from https://github.com/pytorch/pytorch/issues/102085
# ("BatchNorm can't be symbolically traced with torch.fx as a standalone module", dgenova, 2023-05-23).
# The first code block of the description, unchanged except these header comments; runs on CPU as posted.
import torch
import torch.nn as nn
bn = nn.BatchNorm2d(64)
_ = torch.fx.symbolic_trace(bn)
