import torch


def forward(batch_idx=None):
    if batch_idx:
        pass


torch.fx.symbolic_trace(forward)
