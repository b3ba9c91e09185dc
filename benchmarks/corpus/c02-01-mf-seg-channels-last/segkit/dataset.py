"""Synthetic tiles: an RGB uint8 image (H, W, C, as image files decode) and a class mask (H, W)."""
import numpy as np
from torch.utils.data import Dataset


class SyntheticTiles(Dataset):
    def __init__(self, n, tile, classes, transform=None, seed=0):
        rng = np.random.default_rng(seed)
        self.images = rng.integers(0, 256, size=(n, tile, tile, 3), dtype=np.uint8)
        self.masks = rng.integers(0, classes, size=(n, tile, tile), dtype=np.int64)
        self.transform = transform

    def __len__(self):
        return len(self.images)

    def __getitem__(self, idx):
        image, mask = self.images[idx], self.masks[idx]
        if self.transform is not None:
            image, mask = self.transform(image, mask)
        return image, mask
