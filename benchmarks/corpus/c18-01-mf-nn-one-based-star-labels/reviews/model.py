import torch
from torch import nn


class MeanPool(nn.Module):
    def forward(self, emb, lengths):
        mask = (torch.arange(emb.size(1))[None, :] < lengths[:, None]).unsqueeze(-1)
        return (emb * mask).sum(1) / lengths.clamp(min=1)[:, None]


class StarClassifier(nn.Module):
    def __init__(self, vocab_size, embed_dim, hidden, n_classes):
        super().__init__()
        self.embed = nn.Embedding(vocab_size, embed_dim, padding_idx=0)
        self.pool = MeanPool()
        self.head = nn.Sequential(nn.Linear(embed_dim, hidden), nn.GELU(), nn.Dropout(0.1),
                                  nn.Linear(hidden, n_classes))

    def forward(self, ids, lengths):
        return self.head(self.pool(self.embed(ids), lengths))
