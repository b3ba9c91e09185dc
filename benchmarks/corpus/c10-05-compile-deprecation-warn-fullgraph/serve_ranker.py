"""Score candidate listings with the click-through ranker, compiled for the serving path."""
import argparse
import logging
import warnings
from dataclasses import dataclass

import torch
from torch import nn

log = logging.getLogger("serve_ranker")


@dataclass
class RankerConfig:
    n_features: int = 16
    hidden: int = 64
    # checkpoints from before v2 stored a global score multiplier; v2 folds it into the last layer
    legacy_score_scale: float = None


class Ranker(nn.Module):
    def __init__(self, cfg):
        super().__init__()
        self.cfg = cfg
        self.mlp = nn.Sequential(nn.Linear(cfg.n_features, cfg.hidden), nn.ReLU(), nn.Linear(cfg.hidden, 1))

    def forward(self, features):
        scores = self.mlp(features).squeeze(-1)
        if self.cfg.legacy_score_scale is not None:
            warnings.warn("legacy_score_scale is deprecated; re-export the checkpoint with the v2 tool",
                          DeprecationWarning, stacklevel=2)
            scores = scores * self.cfg.legacy_score_scale
        return scores


def load_checkpoint(version):
    """Stand-in for the model registry: the v1 checkpoint still carries the legacy multiplier."""
    torch.manual_seed(0)
    cfg = RankerConfig(legacy_score_scale=0.5 if version == "v1" else None)
    return Ranker(cfg).eval()


def top_k(scores, k):
    values, idx = torch.topk(scores, k=min(k, scores.numel()))
    return list(zip(idx.tolist(), values.tolist()))


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--checkpoint", default="v1", choices=["v1", "v2"])
    parser.add_argument("--candidates", type=int, default=32)
    parser.add_argument("--top", type=int, default=5)
    parser.add_argument("--no-compile", action="store_true")
    args = parser.parse_args()
    logging.basicConfig(level=logging.INFO, format="%(name)s: %(message)s")
    model = load_checkpoint(args.checkpoint)
    if not args.no_compile:
        # the serving path must be one graph: a graph break would put Python back on every request
        model = torch.compile(model, backend="eager", fullgraph=True)
    g = torch.Generator().manual_seed(1)
    features = torch.randn(args.candidates, model.cfg.n_features, generator=g)
    with torch.no_grad():
        scores = model(features)
    for rank, (idx, score) in enumerate(top_k(scores, args.top), 1):
        log.info("#%d candidate %d score %.3f", rank, idx, score)


if __name__ == "__main__":
    main()
