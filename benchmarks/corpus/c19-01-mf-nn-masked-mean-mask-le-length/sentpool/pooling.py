import torch
from torch import nn

from .masks import length_mask


class MaskedMeanPool(nn.Module):
    def forward(self, x, lengths):
        mask = length_mask(lengths, x.shape[1]).unsqueeze(-1).to(x.dtype)
        total = (x * mask).sum(dim=1)
        return total / mask.sum(dim=1).clamp(min=1.0)


class SentenceEncoder(nn.Module):
    def __init__(self, cfg):
        super().__init__()
        self.embed = nn.Embedding(cfg.max_vocab, cfg.dim, padding_idx=cfg.pad_id)
        self.pool = MaskedMeanPool()
        self.proj = nn.Linear(cfg.dim, cfg.out_dim)

    def forward(self, ids, lengths):
        return self.proj(self.pool(self.embed(ids), lengths))

    def encode_one(self, ids):
        """One sentence, unpadded: the plain mean over its tokens."""
        x = self.embed(torch.tensor(ids)).mean(dim=0)
        return self.proj(x)
