import torch
from torch.utils.data import DataLoader, TensorDataset


def make_welds(cfg, seed=0):
    """Stand-in for the line's sensor snapshot: features and a defect class per weld."""
    g = torch.Generator().manual_seed(seed)
    x = torch.randn(cfg.n_welds, cfg.n_features, generator=g)
    score = x[:, 1] * 1.5 + x[:, 3] - x[:, 5] * 0.5
    y = torch.bucketize(score, torch.tensor([-1.0, 0.5, 1.5]))
    return TensorDataset(x, y)


def make_loaders(dataset, cfg):
    n_val = int(len(dataset) * cfg.val_fraction)
    train, val = torch.utils.data.random_split(dataset, [len(dataset) - n_val, n_val],
                                               generator=torch.Generator().manual_seed(0))
    train_loader = DataLoader(train, batch_size=cfg.batch_size, shuffle=True,
                              generator=torch.Generator().manual_seed(1))
    val_loader = DataLoader(val, batch_size=cfg.batch_size)
    return train_loader, val_loader
