import warnings

import torch


def forward(scores):
    warnings.warn("legacy_score_scale is deprecated", DeprecationWarning, stacklevel=2)
    return scores * 0.5


torch.compile(forward, backend="eager", fullgraph=True)(torch.ones(3))
