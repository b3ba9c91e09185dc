"""Export the tabular feature encoder used by the churn model, after checking it against the numpy
reference implementation the analysts use.

    python export_features.py [--rows 8] [--out features.pt]
"""

import argparse
import logging

import numpy as np
import torch
from torch import nn

log = logging.getLogger("export_features")

COLUMNS = ["tenure_days", "monthly_spend", "support_tickets", "logins_30d", "discount_pct", "age"]
LOG_COLUMNS = ["monthly_spend", "support_tickets"]  # heavy-tailed: log1p before standardizing


def load_accounts(n, seed=11):
    rng = np.random.default_rng(seed)
    data = np.stack([
        rng.integers(1, 2000, n),
        rng.lognormal(3.0, 1.0, n),
        rng.poisson(2.0, n),
        rng.integers(0, 60, n),
        rng.uniform(0, 30, n),
        rng.integers(18, 80, n),
    ], axis=1)
    return data.astype(np.float32)


class FeatureEncoder(nn.Module):
    """Standardized features (log1p on the heavy-tailed columns), followed by the raw columns."""

    def __init__(self, mean, std, log_idx):
        super().__init__()
        self.register_buffer("mean", torch.as_tensor(mean))
        self.register_buffer("std", torch.as_tensor(std))
        self.log_idx = list(log_idx)

    @classmethod
    def fit(cls, data, log_idx):
        logged = data.copy()
        logged[:, log_idx] = np.log1p(logged[:, log_idx])
        return cls(logged.mean(axis=0), logged.std(axis=0) + 1e-6, log_idx)

    def forward(self, x):
        z = x  # engineered features start from the raw columns
        z[:, self.log_idx] = torch.log1p(z[:, self.log_idx])
        z = (z - self.mean) / self.std
        return torch.cat([z, x], dim=1)


def reference(data, mean, std, log_idx):
    logged = data.copy()
    logged[:, log_idx] = np.log1p(logged[:, log_idx])
    return np.concatenate([(logged - mean) / std, data], axis=1)


def main():
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("--rows", type=int, default=8)
    p.add_argument("--out", default=None)
    args = p.parse_args()
    logging.basicConfig(level=logging.WARNING)

    log_idx = [COLUMNS.index(c) for c in LOG_COLUMNS]
    train = load_accounts(200)
    encoder = FeatureEncoder.fit(train, log_idx).eval()
    log.info("fitted on %d rows: mean %s", len(train), encoder.mean.tolist())

    batch = load_accounts(args.rows, seed=12)
    with torch.no_grad():
        got = encoder(torch.tensor(batch)).numpy()
    want = reference(batch, encoder.mean.numpy(), encoder.std.numpy(), log_idx)
    np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-6)
    if args.out:
        torch.save(encoder.state_dict(), args.out)
    print(f"encoder ok: {got.shape[1]} features")


if __name__ == "__main__":
    main()
