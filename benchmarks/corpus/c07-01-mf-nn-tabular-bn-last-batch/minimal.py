import torch
from torch import nn
from torch.utils.data import DataLoader, TensorDataset


def make_loader(train_set, batch_size):
    train_loader = DataLoader(train_set, batch_size=batch_size, shuffle=True)
    return train_loader


torch.manual_seed(0)
model = nn.Sequential(nn.Linear(6, 32), nn.BatchNorm1d(32))
for (x,) in make_loader(TensorDataset(torch.randn(81, 6)), 16):
    model(x)
