import torch
from torch import nn


class ReviewDataset:
    def __getitem__(self, row):
        label = int(row["stars"])
        return torch.tensor(label)


def train_epoch(model, ids, labels, loss_fn):
    logits = model(ids)
    loss = loss_fn(logits, labels)
    return loss


labels = torch.stack([ReviewDataset()[{"stars": str(s)}] for s in (1, 2, 3, 4, 5)])
train_epoch(nn.Linear(8, 5), torch.randn(5, 8), labels, nn.CrossEntropyLoss())
