"""Classify web sessions (sequences of page-event ids) as bot / human with a small transformer."""
import logging
from dataclasses import dataclass

import torch
import torch.nn.functional as F
from torch import nn

log = logging.getLogger("sessions")


@dataclass
class ModelConfig:
    n_events: int = 120
    dim: int = 32
    heads: int = 4
    layers: int = 2
    max_len: int = 20
    dropout: float = 0.1


class SelfAttention(nn.Module):
    def __init__(self, dim, heads, dropout):
        super().__init__()
        self.mha = nn.MultiheadAttention(dim, heads, dropout=dropout)

    def forward(self, x, pad_mask):  # x: (batch, time, dim), pad_mask: (batch, time), True = padding
        out, _ = self.mha(x, x, x, key_padding_mask=pad_mask, need_weights=False)
        return out


class EncoderBlock(nn.Module):
    def __init__(self, cfg):
        super().__init__()
        self.norm1 = nn.LayerNorm(cfg.dim)
        self.attn = SelfAttention(cfg.dim, cfg.heads, cfg.dropout)
        self.norm2 = nn.LayerNorm(cfg.dim)
        self.ff = nn.Sequential(nn.Linear(cfg.dim, 4 * cfg.dim), nn.GELU(), nn.Linear(4 * cfg.dim, cfg.dim))

    def forward(self, x, pad_mask):
        x = x + self.attn(self.norm1(x), pad_mask)
        return x + self.ff(self.norm2(x))


class SessionClassifier(nn.Module):
    def __init__(self, cfg):
        super().__init__()
        self.embed = nn.Embedding(cfg.n_events + 1, cfg.dim, padding_idx=0)
        self.pos = nn.Parameter(torch.zeros(1, cfg.max_len, cfg.dim))
        self.blocks = nn.ModuleList(EncoderBlock(cfg) for _ in range(cfg.layers))
        self.head = nn.Linear(cfg.dim, 2)

    def forward(self, events):
        pad_mask = events == 0
        x = self.embed(events) + self.pos[:, : events.shape[1]]
        for block in self.blocks:
            x = block(x, pad_mask)
        keep = (~pad_mask).unsqueeze(-1).float()
        return self.head((x * keep).sum(1) / keep.sum(1).clamp(min=1))


def pad_sessions(sessions, max_len):
    batch = torch.zeros(len(sessions), max_len, dtype=torch.long)
    for i, s in enumerate(sessions):
        s = s[:max_len]
        batch[i, : len(s)] = torch.tensor(s)
    return batch


def main():
    logging.basicConfig(level=logging.INFO, format="%(message)s")
    torch.manual_seed(0)
    cfg = ModelConfig()
    model = SessionClassifier(cfg)
    sessions = [[3, 17, 17, 42, 8], [5] * 20, [9, 2, 64, 64, 64, 11, 1], [77, 78]]
    events, labels = pad_sessions(sessions, cfg.max_len), torch.tensor([0, 1, 0, 1])
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    loss = F.cross_entropy(model(events), labels)
    loss.backward()
    opt.step()
    log.info("one step on %d sessions, loss %.4f", len(sessions), loss.item())


if __name__ == "__main__":
    main()
