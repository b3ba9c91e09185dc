from torch.utils.data import DataLoader
list(DataLoader([["X"] * 1, ["X"] * 2], batch_size=2))
