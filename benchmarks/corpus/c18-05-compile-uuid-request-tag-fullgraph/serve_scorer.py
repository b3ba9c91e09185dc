"""Score candidate items for users with a compiled two-layer scorer, tagging each batch for the audit log.

    python serve_scorer.py --users 16 --candidates 50 [--no-compile]
"""

import argparse
import logging
import uuid

import torch
from torch import nn
from torch.nn import functional as F

log = logging.getLogger("serve_scorer")


class AuditTrail:
    """Collects (request tag, stage, batch size) so that served scores can be traced back."""

    def __init__(self, enabled=True):
        self.enabled = enabled
        self.entries = []

    def tag(self, stage, t):
        if self.enabled:
            self.entries.append((uuid.uuid4().hex[:12], stage, t.shape[0]))
        return t


class FeatureBlock(nn.Module):
    def __init__(self, dim, hidden, audit, stage):
        super().__init__()
        self.norm = nn.LayerNorm(dim)
        self.up = nn.Linear(dim, hidden)
        self.down = nn.Linear(hidden, dim)
        self.audit = audit
        self.stage = stage

    def forward(self, x):
        h = x + self.down(F.silu(self.up(self.norm(x))))
        return self.audit.tag(self.stage, h)


class CandidateScorer(nn.Module):
    def __init__(self, n_users, n_items, dim, hidden, audit):
        super().__init__()
        self.users = nn.Embedding(n_users, dim)
        self.items = nn.Embedding(n_items, dim)
        self.user_block = FeatureBlock(dim, hidden, audit, "user")
        self.item_block = FeatureBlock(dim, hidden, audit, "item")
        self.temperature = nn.Parameter(torch.tensor(0.07))

    def forward(self, user_ids, item_ids):
        u = F.normalize(self.user_block(self.users(user_ids)), dim=-1)
        v = F.normalize(self.item_block(self.items(item_ids)), dim=-1)
        return torch.einsum("bd,bkd->bk", u, v) / self.temperature


def parse_args():
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("--users", type=int, default=16)
    p.add_argument("--candidates", type=int, default=50)
    p.add_argument("--top-k", type=int, default=5)
    p.add_argument("--no-compile", action="store_true")
    p.add_argument("--no-audit", action="store_true")
    return p.parse_args()


def main():
    logging.basicConfig(level=logging.INFO, format="%(levelname)s %(name)s: %(message)s")
    args = parse_args()
    torch.manual_seed(0)
    audit = AuditTrail(enabled=not args.no_audit)
    model = CandidateScorer(n_users=1000, n_items=5000, dim=32, hidden=64, audit=audit).eval()
    scorer = model if args.no_compile else torch.compile(model, backend="eager", fullgraph=True)
    user_ids = torch.randint(0, 1000, (args.users,))
    item_ids = torch.randint(0, 5000, (args.users, args.candidates))
    with torch.no_grad():
        scores = scorer(user_ids, item_ids)
    top = scores.topk(args.top_k, dim=-1).indices
    for u, row in zip(user_ids[:3].tolist(), top[:3].tolist()):
        log.info("user %d: %s", u, [item_ids[0, i].item() for i in row])
    log.info("%d audit entries", len(audit.entries))


if __name__ == "__main__":
    main()
