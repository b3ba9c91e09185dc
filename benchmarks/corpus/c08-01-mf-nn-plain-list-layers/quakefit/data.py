import torch
from torch.utils.data import DataLoader, TensorDataset


def synthetic_sites(n, n_features, seed):
    """Site descriptors (vs30, depth, ...) and a smooth amplification target."""
    g = torch.Generator().manual_seed(seed)
    x = torch.randn(n, n_features, generator=g)
    w = torch.linspace(-1.0, 1.0, n_features)
    y = torch.tanh(x @ w).unsqueeze(1) + 0.05 * torch.randn(n, 1, generator=g)
    return x, y


def make_loaders(cfg):
    x, y = synthetic_sites(cfg.n_samples, cfg.n_features, cfg.seed)
    split = int(0.8 * len(x))
    train = TensorDataset(x[:split], y[:split])
    val = TensorDataset(x[split:], y[split:])
    return (DataLoader(train, batch_size=cfg.batch_size, shuffle=True),
            DataLoader(val, batch_size=cfg.batch_size))
