import numpy as np
import torch
from torch.utils.data import DataLoader, TensorDataset

DEFECT_TYPES = ("ok", "crack", "burr", "warp", "misfeed")
NUM_FEATURES = 24


def synthetic_readings(n: int, seed: int) -> tuple[np.ndarray, np.ndarray]:
    """Band energies of one press stroke each, and the inspector's defect code (an index of DEFECT_TYPES)."""
    rng = np.random.default_rng(seed)
    codes = rng.integers(0, len(DEFECT_TYPES), size=n)
    centers = rng.normal(0.0, 1.0, size=(len(DEFECT_TYPES), NUM_FEATURES))
    feats = centers[codes] + 0.6 * rng.normal(size=(n, NUM_FEATURES))
    # the labels table is large in production: keep the codes compact
    labels = codes.astype(np.int32)
    return feats.astype(np.float32), labels


def make_loaders(n_train: int, n_val: int, batch_size: int, seed: int) -> tuple[DataLoader, DataLoader]:
    feats, labels = synthetic_readings(n_train + n_val, seed)
    mean, std = feats[:n_train].mean(0), feats[:n_train].std(0) + 1e-6
    feats = (feats - mean) / std
    train = TensorDataset(torch.from_numpy(feats[:n_train]), torch.from_numpy(labels[:n_train]))
    val = TensorDataset(torch.from_numpy(feats[n_train:]), torch.from_numpy(labels[n_train:]))
    generator = torch.Generator().manual_seed(seed)
    return (DataLoader(train, batch_size=batch_size, shuffle=True, generator=generator),
            DataLoader(val, batch_size=batch_size))
