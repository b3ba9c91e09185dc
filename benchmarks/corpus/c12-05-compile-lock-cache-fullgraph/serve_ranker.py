"""Score candidate lists with the re-ranker, compiled once at start-up (the serving threads share it)."""
import argparse
import logging
import threading
from dataclasses import dataclass

import torch
from torch import nn

log = logging.getLogger("serve_ranker")


@dataclass
class RankerConfig:
    n_items: int = 500
    dim: int = 32
    max_list: int = 50
    heads: int = 4
    compile: bool = True


class PositionBias(nn.Module):
    """A learned bias per slot, expanded for each list length once and cached (shared across threads)."""

    def __init__(self, max_list):
        super().__init__()
        self.slot = nn.Parameter(torch.zeros(max_list))
        self._cache = {}
        self._lock = threading.Lock()

    def forward(self, length):
        with self._lock:
            if length not in self._cache:
                self._cache[length] = torch.arange(length)
            idx = self._cache[length]
        return self.slot[idx]


class Reranker(nn.Module):
    def __init__(self, cfg):
        super().__init__()
        self.items = nn.Embedding(cfg.n_items, cfg.dim)
        self.attn = nn.MultiheadAttention(cfg.dim, cfg.heads, batch_first=True)
        self.score = nn.Linear(cfg.dim, 1)
        self.bias = PositionBias(cfg.max_list)

    def forward(self, item_ids, user):
        x = self.items(item_ids) + user.unsqueeze(1)
        h, _ = self.attn(x, x, x, need_weights=False)
        return self.score(h).squeeze(-1) + self.bias(item_ids.size(1))


def load_requests(cfg, n=4, length=12, seed=0):
    g = torch.Generator().manual_seed(seed)
    items = torch.randint(0, cfg.n_items, (n, length), generator=g)
    users = torch.randn(n, cfg.dim, generator=g)
    return items, users


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--eager", action="store_true", help="do not compile")
    parser.add_argument("--top", type=int, default=3)
    args = parser.parse_args()
    logging.basicConfig(level=logging.INFO, format="%(name)s: %(message)s")
    torch.manual_seed(0)
    cfg = RankerConfig(compile=not args.eager)
    model = Reranker(cfg).eval()
    if cfg.compile:
        model = torch.compile(model, backend="eager", fullgraph=True)
    items, users = load_requests(cfg)
    with torch.no_grad():
        scores = model(items, users)
    top = scores.topk(args.top, dim=-1).indices
    for row, picks in enumerate(top.tolist()):
        log.info("request %d: slots %s", row, picks)


if __name__ == "__main__":
    main()
