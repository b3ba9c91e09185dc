"""Semi-supervised label propagation on a random geometric graph, compiled with torch.compile."""
import argparse
import logging
import math

import torch
from torch import nn

log = logging.getLogger("propagate")


def random_graph(n_nodes: int, radius: float, seed: int):
    g = torch.Generator().manual_seed(seed)
    pos = torch.rand(n_nodes, 2, generator=g)
    adj = (torch.cdist(pos, pos) < radius).float()
    adj.fill_diagonal_(0)
    deg = adj.sum(1).clamp(min=1)
    norm_adj = adj / torch.sqrt(deg[:, None] * deg[None, :])
    labels = (pos[:, 0] > 0.5).long()
    return norm_adj, labels


def hop_budget(n_nodes: int, avg_degree: float):
    """Hops needed for a label to reach most of the graph: about log(n) / log(average degree)."""
    return torch.ceil(torch.log2(torch.tensor(float(n_nodes))) / math.log2(max(avg_degree, 2.0))).long()


class Propagator(nn.Module):
    """Repeated smoothing H <- alpha * A H + (1 - alpha) * Y0, then a learned per-class scale."""

    def __init__(self, n_classes: int, alpha: float = 0.8):
        super().__init__()
        self.alpha = alpha
        self.scale = nn.Parameter(torch.ones(n_classes))

    def forward(self, adj: torch.Tensor, seeds: torch.Tensor, hops) -> torch.Tensor:
        h = seeds
        for _ in range(hops):
            h = self.alpha * (adj @ h) + (1 - self.alpha) * seeds
        return h * self.scale


def seed_matrix(labels: torch.Tensor, known: torch.Tensor, n_classes: int) -> torch.Tensor:
    seeds = torch.zeros(len(labels), n_classes)
    seeds[known, labels[known]] = 1.0
    return seeds


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("--nodes", type=int, default=200)
    p.add_argument("--radius", type=float, default=0.15)
    p.add_argument("--known", type=float, default=0.1, help="share of nodes with a known label")
    p.add_argument("--seed", type=int, default=0)
    args = p.parse_args(argv)
    logging.basicConfig(level=logging.INFO, format="%(name)s: %(message)s")
    adj, labels = random_graph(args.nodes, args.radius, args.seed)
    known = torch.rand(args.nodes, generator=torch.Generator().manual_seed(args.seed + 1)) < args.known
    seeds = seed_matrix(labels, known, 2)
    avg_degree = (adj > 0).sum(1).float().mean().item()
    hops = hop_budget(args.nodes, avg_degree)
    model = torch.compile(Propagator(2), backend="eager", fullgraph=True)
    with torch.no_grad():
        scores = model(adj, seeds, hops)
    acc = (scores.argmax(1) == labels)[~known].float().mean().item()
    log.info("%d hops, accuracy on unlabeled nodes %.3f", int(hops), acc)


if __name__ == "__main__":
    main()
