import torch
from torch.utils.data import Dataset


def make_tiles(cfg, seed=0):
    """Stand-in for the survey export: reflectance tiles (N, C, H, W) and a stress label per tile."""
    g = torch.Generator().manual_seed(seed)
    labels = torch.randint(0, cfg.n_classes, (cfg.n_tiles,), generator=g)
    base = torch.tensor([0.08, 0.12, 0.45]).view(1, -1, 1, 1)
    shift = (labels.float() / cfg.n_classes).view(-1, 1, 1, 1) * torch.tensor([0.05, -0.02, -0.2]).view(1, -1, 1, 1)
    noise = 0.02 * torch.randn(cfg.n_tiles, cfg.channels, cfg.image_size, cfg.image_size, generator=g)
    return base + shift + noise, labels


class TileDataset(Dataset):
    def __init__(self, images, labels, transform=None):
        self.images, self.labels, self.transform = images, labels, transform

    def __len__(self):
        return len(self.labels)

    def __getitem__(self, i):
        img = self.images[i]
        if self.transform is not None:
            img = self.transform(img)
        return img, self.labels[i]
