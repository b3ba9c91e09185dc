import torch
from torch.utils.data import DataLoader


def pad_to(ids, length, pad_id):
    return ids + [pad_id] * (length - len(ids))


samples = [[1, 5, 6, 2], [1, 5, 2]]
batch = [{"ids": torch.tensor(pad_to(ids, len(ids), 0))} for ids in samples]
next(iter(DataLoader(batch, batch_size=2)))
