import torch
from torch.utils.data import DataLoader, Dataset


class SlidingWindows(Dataset):
    def __init__(self, values, window, horizon):
        self.values, self.window, self.horizon = values, window, horizon

    def __len__(self):
        return len(self.values) - self.window

    def __getitem__(self, i):
        x = self.values[i : i + self.window]
        y = self.values[i + self.window : i + self.window + self.horizon]
        return x, y


next(iter(DataLoader(SlidingWindows(torch.zeros(32), 24, 6), batch_size=16)))
