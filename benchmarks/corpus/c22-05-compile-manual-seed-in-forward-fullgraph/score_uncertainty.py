"""Score sensor windows with an MC-dropout regressor, compiled as one graph for the scoring service."""

import argparse
import logging

import torch
from torch import nn

log = logging.getLogger("score_uncertainty")


class Encoder(nn.Module):
    def __init__(self, n_in: int, dim: int, p: float):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(n_in, dim), nn.ReLU(), nn.Dropout(p), nn.Linear(dim, dim), nn.ReLU())

    def forward(self, x):
        return self.net(x)


class MCDropoutRegressor(nn.Module):
    """Mean and spread of `samples` stochastic passes (dropout stays on at inference)."""

    def __init__(self, n_in: int, dim: int = 32, p: float = 0.2, samples: int = 8, seed: int = 1234):
        super().__init__()
        self.encoder = Encoder(n_in, dim, p)
        self.drop = nn.Dropout(p)
        self.head = nn.Linear(dim, 1)
        self.samples, self.seed = samples, seed

    def forward(self, x):
        torch.manual_seed(self.seed)  # same MC draws on every call, so scores are reproducible
        draws = []
        for _ in range(self.samples):
            draws.append(self.head(self.drop(self.encoder(x))).squeeze(-1))
        draws = torch.stack(draws)
        return draws.mean(0), draws.std(0)


def enable_mc_dropout(model: nn.Module) -> None:
    model.eval()
    for m in model.modules():
        if isinstance(m, nn.Dropout):
            m.train()


def init_weights(model: nn.Module, gen: torch.Generator) -> None:
    """Deterministic weights for the smoke run (the service loads a checkpoint instead)."""
    for p in model.parameters():
        nn.init.normal_(p, 0.0, 0.2, generator=gen)


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--windows", type=int, default=12)
    parser.add_argument("--features", type=int, default=6)
    parser.add_argument("--max-std", type=float, default=0.5, help="flag windows more uncertain than this")
    args = parser.parse_args()
    logging.basicConfig(level=logging.INFO, format="%(name)s: %(message)s")
    gen = torch.Generator().manual_seed(0)

    model = MCDropoutRegressor(args.features)
    init_weights(model, gen)
    enable_mc_dropout(model)
    scorer = torch.compile(model, backend="eager", fullgraph=True)
    windows = torch.randn(args.windows, args.features, generator=gen)
    with torch.no_grad():
        mean, std = scorer(windows)
    flagged = (std > args.max_std).nonzero().flatten().tolist()
    log.info("scored %d windows, mean %.3f, flagged %s", len(mean), mean.mean().item(), flagged)


if __name__ == "__main__":
    main()
