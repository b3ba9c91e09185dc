"""Score search listings with a small ranking model, compiled for serving (one graph, no breaks)."""

import argparse
import logging

import torch
from torch import nn

log = logging.getLogger("rank_listings")


def ensure(ok, message: str) -> None:
    """Serving-time sanity check (kept in production builds, unlike assert)."""
    if not ok:
        raise ValueError(message)


class FeatureTower(nn.Module):
    def __init__(self, n_in: int, dim: int):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(n_in, dim), nn.ReLU(), nn.Linear(dim, dim))

    def forward(self, x):
        return self.net(x)


class RankScorer(nn.Module):
    def __init__(self, n_query: int, n_item: int, dim: int = 32):
        super().__init__()
        self.query = FeatureTower(n_query, dim)
        self.item = FeatureTower(n_item, dim)
        self.scale = dim ** -0.5

    def forward(self, query_feats, item_feats):
        ensure(item_feats.dim() == 2, f"item features must be (items, features), got {item_feats!r}")
        q = self.query(query_feats)  # (1, dim)
        k = self.item(item_feats)  # (items, dim)
        return (k @ q.T).squeeze(1) * self.scale


def make_listings(n: int, n_item: int, gen: torch.Generator) -> torch.Tensor:
    price = torch.rand(n, 1, generator=gen) * 3
    rating = torch.rand(n, 1, generator=gen)
    rest = torch.randn(n, n_item - 2, generator=gen)
    return torch.cat([price, rating, rest], dim=1)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--listings", type=int, default=50)
    parser.add_argument("--top", type=int, default=5)
    args = parser.parse_args()
    logging.basicConfig(level=logging.INFO, format="%(name)s: %(message)s")
    torch.manual_seed(0)
    gen = torch.Generator().manual_seed(0)

    model = RankScorer(n_query=8, n_item=12).eval()
    scorer = torch.compile(model, backend="eager", fullgraph=True)
    query = torch.randn(1, 8, generator=gen)
    items = make_listings(args.listings, 12, gen)
    with torch.no_grad():
        scores = scorer(query, items)
    top = torch.topk(scores, args.top)
    for rank, (idx, score) in enumerate(zip(top.indices.tolist(), top.values.tolist()), 1):
        log.info("%d. listing %d score %.3f", rank, idx, score)


if __name__ == "__main__":
    main()
