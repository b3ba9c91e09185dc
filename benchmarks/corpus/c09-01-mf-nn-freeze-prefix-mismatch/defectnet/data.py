import torch
from torch.utils.data import DataLoader, TensorDataset


def synthetic_parts(cfg, seed=0):
    """Grey-level crops of parts; a defect is a bright scratch across the crop."""
    g = torch.Generator().manual_seed(seed)
    images = torch.rand(cfg.n_train, 3, cfg.image_size, cfg.image_size, generator=g) * 0.5
    labels = (torch.rand(cfg.n_train, generator=g) < cfg.defect_rate).long()
    for i in torch.nonzero(labels).flatten().tolist():
        row = int(torch.randint(0, cfg.image_size, (1,), generator=g))
        images[i, :, row, :] = 1.0
    return images, labels


def make_loader(cfg, seed=0):
    images, labels = synthetic_parts(cfg, seed)
    return DataLoader(TensorDataset(images, labels), batch_size=cfg.batch_size, shuffle=True,
                      generator=torch.Generator().manual_seed(seed))
