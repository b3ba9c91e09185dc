"""A synthetic stand-in for the CRM export, split into train / validation loaders."""
import torch
from torch.utils.data import DataLoader, Subset, TensorDataset


def synthetic_customers(cfg):
    g = torch.Generator().manual_seed(cfg.seed)
    numeric = torch.randn(cfg.n_rows, cfg.n_numeric, generator=g)
    plan = torch.randint(0, cfg.plans, (cfg.n_rows,), generator=g)
    region = torch.randint(0, cfg.regions, (cfg.n_rows,), generator=g)
    logit = 1.5 * numeric[:, 0] - numeric[:, 2] + 0.5 * (plan == 0).float()
    churned = (torch.sigmoid(logit) > torch.rand(cfg.n_rows, generator=g)).float()
    return TensorDataset(numeric, torch.stack([plan, region], dim=1), churned)


def split(dataset, val_fraction, seed):
    order = torch.randperm(len(dataset), generator=torch.Generator().manual_seed(seed)).tolist()
    n_val = int(len(dataset) * val_fraction)
    return Subset(dataset, order[n_val:]), Subset(dataset, order[:n_val])


def make_loaders(cfg):
    train_set, val_set = split(synthetic_customers(cfg), cfg.val_fraction, cfg.seed)
    batch_size = cfg.batch_size
    train_loader = DataLoader(train_set, batch_size=batch_size, shuffle=True)
    val_loader = DataLoader(val_set, batch_size=64)
    return train_loader, val_loader
