"""Paired image/mask transforms working on numpy arrays, ending in tensors."""
import numpy as np
import torch


class Compose:
    def __init__(self, steps):
        self.steps = steps

    def __call__(self, image, mask):
        for step in self.steps:
            image, mask = step(image, mask)
        return image, mask


class RandomHorizontalFlip:
    def __init__(self, p=0.5, seed=0):
        self.p = p
        self.rng = np.random.default_rng(seed)

    def __call__(self, image, mask):
        if self.rng.random() < self.p:
            return image[:, ::-1].copy(), mask[:, ::-1].copy()
        return image, mask


class ToTensor:
    """uint8 image -> float tensor in [0, 1]; int mask -> long tensor."""

    def __call__(self, image, mask):
        return torch.from_numpy(image).float().div(255.0), torch.from_numpy(mask).long()


class Normalize:
    def __init__(self, mean, std):
        self.mean = torch.tensor(mean)
        self.std = torch.tensor(std)

    def __call__(self, image, mask):
        return (image - self.mean) / self.std, mask


def default_transforms(cfg):
    return Compose([RandomHorizontalFlip(), ToTensor(), Normalize(cfg.mean, cfg.std)])
