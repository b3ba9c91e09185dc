from torch.utils.data import Dataset


class SlidingWindows(Dataset):
    """(history, target) pairs: `window` readings in, the next `horizon` readings out."""

    def __init__(self, values, window, horizon):
        if len(values) < window + horizon:
            raise ValueError(f"series of {len(values)} readings is shorter than one window")
        self.values = values
        self.window = window
        self.horizon = horizon

    def __len__(self):
        return len(self.values) - self.window

    def __getitem__(self, i):
        x = self.values[i : i + self.window]
        y = self.values[i + self.window : i + self.window + self.horizon]
        return x, y
