"""Train a small feature-gated ranking model on synthetic click logs (one epoch, CPU)."""

import argparse
import logging
from dataclasses import dataclass

import torch
from torch import nn

log = logging.getLogger("ranker")


@dataclass
class RankerConfig:
    num_fields: int = 12
    embed_dim: int = 8
    hidden: int = 32
    depth: int = 2
    batch_size: int = 16
    lr: float = 3e-3


class FeatureGate(nn.Module):
    """Learns a weight in (0, 1) per field; fields missing from a sample get weight 0."""

    def __init__(self, num_fields, embed_dim):
        super().__init__()
        self.proj = nn.Linear(num_fields * embed_dim, num_fields)

    def forward(self, fields, present):
        gate = torch.sigmoid(self.proj(fields.flatten(1)))
        gate.masked_fill_(~present, 0.0)
        return fields * gate.unsqueeze(-1)


class TowerBlock(nn.Module):
    def __init__(self, cfg):
        super().__init__()
        self.gate = FeatureGate(cfg.num_fields, cfg.embed_dim)
        self.mlp = nn.Sequential(nn.Linear(cfg.num_fields * cfg.embed_dim, cfg.hidden), nn.ReLU(),
                                 nn.Linear(cfg.hidden, cfg.num_fields * cfg.embed_dim))

    def forward(self, fields, present):
        gated = self.gate(fields, present)
        return fields + self.mlp(gated.flatten(1)).view_as(fields)


class Ranker(nn.Module):
    def __init__(self, cfg, vocab=100):
        super().__init__()
        self.embed = nn.Embedding(vocab, cfg.embed_dim)
        self.blocks = nn.ModuleList(TowerBlock(cfg) for _ in range(cfg.depth))
        self.score = nn.Linear(cfg.num_fields * cfg.embed_dim, 1)

    def forward(self, ids, present):
        fields = self.embed(ids)
        for block in self.blocks:
            fields = block(fields, present)
        return self.score(fields.flatten(1)).squeeze(-1)


def synthetic_batch(cfg, gen):
    ids = torch.randint(0, 100, (cfg.batch_size, cfg.num_fields), generator=gen)
    present = torch.rand(cfg.batch_size, cfg.num_fields, generator=gen) > 0.2
    clicks = (ids[:, 0] % 3 == 0).float()
    return ids, present, clicks


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--steps", type=int, default=4)
    args = parser.parse_args()
    logging.basicConfig(level=logging.INFO, format="%(name)s: %(message)s")
    torch.manual_seed(0)
    cfg = RankerConfig()
    model = Ranker(cfg)
    opt = torch.optim.Adam(model.parameters(), lr=cfg.lr)
    loss_fn = nn.BCEWithLogitsLoss()
    gen = torch.Generator().manual_seed(1)
    for step in range(args.steps):
        ids, present, clicks = synthetic_batch(cfg, gen)
        loss = loss_fn(model(ids, present), clicks)
        opt.zero_grad()
        loss.backward()
        opt.step()
        log.info("step %d loss %.4f", step, loss.item())


if __name__ == "__main__":
    main()
