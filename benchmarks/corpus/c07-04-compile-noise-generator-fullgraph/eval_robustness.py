"""Robustness check of a small keypoint regressor: accuracy on clean vs. noise-corrupted inputs.

The noise is seeded per call so every evaluation run sees exactly the same corruption.
"""
import logging
import time

import torch
from torch import nn

log = logging.getLogger("robustness")
CONFIG = {"in_dim": 48, "hidden": 64, "keypoints": 5, "noise_std": 0.2, "noise_seed": 1234, "batches": 4}


class SeededNoise(nn.Module):
    """Additive Gaussian noise that is identical from run to run (for comparable evaluations)."""

    def __init__(self, std, seed):
        super().__init__()
        self.std, self.seed = std, seed

    def forward(self, x):
        gen = torch.Generator(device=x.device)
        gen.manual_seed(self.seed)
        noise = torch.randn(x.shape, generator=gen, device=x.device, dtype=x.dtype)
        return x + self.std * noise


class KeypointRegressor(nn.Module):
    def __init__(self, cfg, corrupt=False):
        super().__init__()
        self.corrupt = SeededNoise(cfg["noise_std"], cfg["noise_seed"]) if corrupt else nn.Identity()
        self.body = nn.Sequential(nn.Linear(cfg["in_dim"], cfg["hidden"]), nn.GELU(),
                                  nn.Linear(cfg["hidden"], cfg["hidden"]), nn.GELU())
        self.head = nn.Linear(cfg["hidden"], 2 * cfg["keypoints"])

    def forward(self, x):
        return self.head(self.body(self.corrupt(x))).unflatten(-1, (-1, 2))


def mean_error(model, batches):
    with torch.no_grad():
        return torch.stack([(model(x) - y).norm(dim=-1).mean() for x, y in batches]).mean().item()


def main():
    logging.basicConfig(level=logging.INFO, format="%(name)s: %(message)s")
    torch.manual_seed(0)
    batches = [(torch.randn(16, CONFIG["in_dim"]), torch.randn(16, CONFIG["keypoints"], 2))
               for _ in range(CONFIG["batches"])]
    clean = KeypointRegressor(CONFIG).eval()
    noisy = KeypointRegressor(CONFIG, corrupt=True).eval()
    noisy.load_state_dict(clean.state_dict())

    results = {}
    for name, model in (("clean", clean), ("noisy", noisy)):
        compiled = torch.compile(model, backend="eager", fullgraph=True)
        start = time.perf_counter()
        results[name] = mean_error(compiled, batches)
        log.info("%s: mean keypoint error %.4f (%.2f s)", name, results[name], time.perf_counter() - start)
    print(f"degradation under noise: {results['noisy'] - results['clean']:+.4f}")


if __name__ == "__main__":
    main()
