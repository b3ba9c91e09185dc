import torch
from torch import nn


class BagClassifier(nn.Module):
    def __init__(self, vocab_size, dim, n_classes):
        super().__init__()
        self.embed = nn.EmbeddingBag(vocab_size, dim, mode="mean", padding_idx=0)
        self.out = nn.Linear(dim, n_classes)

    def forward(self, ids):
        return self.out(self.embed(ids))


def build(vocab, dim=16, n_classes=2):
    return BagClassifier(len(vocab), dim, n_classes)
