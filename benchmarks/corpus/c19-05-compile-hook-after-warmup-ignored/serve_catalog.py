"""Score catalog items with a compiled classifier; classes the merchandising policy disables are
masked out by a forward hook on the head. A parity check compares the compiled and eager paths.

    python serve_catalog.py [--batch 6] [--disable 3]
"""

import argparse
import logging
import time

import torch
from torch import nn

log = logging.getLogger("serve_catalog")

CLASSES = ["apparel", "footwear", "outdoor", "clearance", "electronics"]


class CatalogClassifier(nn.Module):
    def __init__(self, n_features, n_classes, hidden=16):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(n_features, hidden), nn.GELU(), nn.LayerNorm(hidden))
        self.head = nn.Linear(hidden, n_classes)

    def forward(self, x):
        return self.head(self.body(x))


def load_features(n, n_features, seed):
    g = torch.Generator().manual_seed(seed)
    return torch.randn(n, n_features, generator=g)


def disable_classes(head, disabled):
    """Merchandising policy: disabled classes can never win."""
    index = torch.tensor(disabled)

    def mask_logits(module, inputs, output):
        return output.index_fill(1, index, -1e4)

    return head.register_forward_hook(mask_logits)


def top_classes(logits):
    return [CLASSES[i] for i in logits.argmax(dim=1).tolist()]


def main():
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("--batch", type=int, default=6)
    p.add_argument("--disable", type=int, nargs="*", default=[3])
    p.add_argument("--seed", type=int, default=0)
    args = p.parse_args()
    logging.basicConfig(level=logging.WARNING)

    torch.manual_seed(args.seed)
    model = CatalogClassifier(12, len(CLASSES)).eval()
    compiled = torch.compile(model, backend="eager")

    t0 = time.perf_counter()
    with torch.no_grad():
        compiled(load_features(args.batch, 12, seed=99))  # warm-up: compile before taking traffic
    log.info("warm-up %.2fs", time.perf_counter() - t0)

    handle = disable_classes(model.head, args.disable)
    x = load_features(args.batch, 12, seed=args.seed + 1)
    with torch.no_grad():
        served = compiled(x)
        reference = model(x)
    log.info("served %s", top_classes(served))
    torch.testing.assert_close(served, reference)
    handle.remove()
    print("compiled and eager agree:", top_classes(served))


if __name__ == "__main__":
    main()
