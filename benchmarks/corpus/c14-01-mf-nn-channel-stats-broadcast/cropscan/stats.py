import torch


def channel_stats(images, eps=1e-6):
    """Per-channel mean and std over a stack of (N, C, H, W) training tiles."""
    mean = images.mean(dim=(0, 2, 3))
    std = images.std(dim=(0, 2, 3)).clamp_min(eps)
    return mean, std
