"""Score one request's candidate items with the compiled ranking model (hashed id features)."""
import argparse
import hashlib
import logging
from dataclasses import dataclass

import torch
from torch import nn

log = logging.getLogger("serve_ranker")


@dataclass
class RankerConfig:
    n_buckets: int = 2048
    dim: int = 16
    hidden: int = 32
    dense: tuple = ("price", "rating", "age_days")


# one request as the gateway hands it over
REQUEST = {
    "user": "u_8812",
    "candidates": [
        {"item": "sku-10443", "brand": "b-17", "price": 24.9, "rating": 4.4, "age_days": 12},
        {"item": "sku-20917", "brand": "b-03", "price": 9.5, "rating": 3.9, "age_days": 140},
        {"item": "sku-31208", "brand": "b-17", "price": 59.0, "rating": 4.7, "age_days": 33},
        {"item": "sku-40011", "brand": "b-42", "price": 14.0, "rating": 4.1, "age_days": 5},
    ],
}


def stable_bucket(token, n_buckets):
    """The same bucket in every worker process (str hash() is salted per process)."""
    return int(hashlib.md5(token.encode("utf-8")).hexdigest(), 16) % n_buckets


class HashedEmbedding(nn.Module):
    def __init__(self, n_buckets, dim):
        super().__init__()
        self.n_buckets = n_buckets
        self.table = nn.Embedding(n_buckets, dim)

    def forward(self, tokens):
        ids = torch.tensor([stable_bucket(t, self.n_buckets) for t in tokens])
        return self.table(ids)


class Ranker(nn.Module):
    def __init__(self, cfg):
        super().__init__()
        self.user = HashedEmbedding(cfg.n_buckets, cfg.dim)
        self.item = HashedEmbedding(cfg.n_buckets, cfg.dim)
        self.brand = HashedEmbedding(cfg.n_buckets, cfg.dim)
        self.mlp = nn.Sequential(nn.Linear(3 * cfg.dim + len(cfg.dense), cfg.hidden), nn.ReLU(),
                                 nn.Linear(cfg.hidden, 1))

    def forward(self, user, items, brands, dense):
        u = self.user([user]).expand(len(items), -1)
        x = torch.cat([u, self.item(items), self.brand(brands), dense], dim=-1)
        return self.mlp(x).squeeze(-1)


def featurize(request, cfg):
    cands = request["candidates"]
    dense = torch.tensor([[c[name] for name in cfg.dense] for c in cands], dtype=torch.float32)
    dense = (dense - dense.mean(0)) / dense.std(0).clamp_min(1e-6)
    return request["user"], [c["item"] for c in cands], [c["brand"] for c in cands], dense


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--top", type=int, default=3)
    parser.add_argument("--eager", action="store_true", help="skip torch.compile (debugging)")
    args = parser.parse_args()
    logging.basicConfig(level=logging.INFO, format="%(levelname)s %(message)s")
    torch.manual_seed(0)
    cfg = RankerConfig()
    model = Ranker(cfg).eval()
    scorer = model if args.eager else torch.compile(model, backend="eager", fullgraph=True)
    user, items, brands, dense = featurize(REQUEST, cfg)
    with torch.no_grad():
        scores = scorer(user, items, brands, dense)
    ranked = sorted(zip(items, scores.tolist()), key=lambda p: -p[1])[:args.top]
    for item, score in ranked:
        print(f"{item}\t{score:.4f}")
    log.info("scored %d candidates for %s", len(items), user)


if __name__ == "__main__":
    main()
