"""Score search results with a small two-tower ranker, compiled for serving.

    python rank_listings.py [--batch 32] [--no-trace] [--no-compile]

By default one JSON line per layer (name, shape, dtype) is logged, so the serving logs show what
flowed through the model; --no-trace turns it off.
"""

import argparse
import json
import logging

import torch
from torch import nn

log = logging.getLogger("ranker")


class ShapeTrace:
    """Collects a JSON record per traced layer; flushed to the log after each batch."""

    def __init__(self, enabled):
        self.enabled = enabled
        self.records = []

    def record(self, name, t):
        if self.enabled:
            self.records.append(json.dumps({"layer": name, "shape": list(t.shape), "dtype": str(t.dtype)}))

    def flush(self):
        for rec in self.records:
            log.info("trace %s", rec)
        self.records.clear()


class Tower(nn.Module):
    def __init__(self, n_in, hidden, out, name, trace):
        super().__init__()
        self.name = name
        self.trace = trace
        self.net = nn.Sequential(nn.Linear(n_in, hidden), nn.GELU(), nn.Linear(hidden, out))
        self.norm = nn.LayerNorm(out)

    def forward(self, x):
        h = self.norm(self.net(x))
        self.trace.record(self.name, h)
        return h


class TwoTowerRanker(nn.Module):
    def __init__(self, n_query, n_item, hidden=64, dim=32, trace=None):
        super().__init__()
        self.trace = trace or ShapeTrace(False)
        self.query = Tower(n_query, hidden, dim, "query", self.trace)
        self.item = Tower(n_item, hidden, dim, "item", self.trace)
        self.scale = nn.Parameter(torch.tensor(dim ** -0.5))

    def forward(self, q, items):
        qv = self.query(q)                        # (B, D)
        iv = self.item(items)                     # (B, K, D)
        scores = torch.einsum("bd,bkd->bk", qv, iv) * self.scale
        self.trace.record("scores", scores)
        return scores


def make_batch(batch, n_items, n_query, n_item, seed):
    g = torch.Generator().manual_seed(seed)
    return torch.randn(batch, n_query, generator=g), torch.randn(batch, n_items, n_item, generator=g)


def main():
    logging.basicConfig(level=logging.INFO, format="%(levelname)s %(message)s")
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("--batch", type=int, default=32)
    p.add_argument("--items", type=int, default=20)
    p.add_argument("--no-trace", action="store_true")
    p.add_argument("--no-compile", action="store_true")
    args = p.parse_args()
    torch.manual_seed(0)
    trace = ShapeTrace(not args.no_trace)
    model = TwoTowerRanker(n_query=24, n_item=40, trace=trace).eval()
    runner = model if args.no_compile else torch.compile(model, fullgraph=True)
    q, items = make_batch(args.batch, args.items, 24, 40, seed=1)
    with torch.no_grad():
        scores = runner(q, items)
    trace.flush()
    top = scores.topk(3, dim=1).indices
    log.info("top-3 items of the first query: %s", top[0].tolist())


if __name__ == "__main__":
    main()
