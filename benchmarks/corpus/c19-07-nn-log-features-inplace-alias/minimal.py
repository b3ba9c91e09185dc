import numpy as np
import torch
from torch import nn


class FeatureEncoder(nn.Module):
    def forward(self, x):
        z = x  # engineered features start from the raw columns
        z[:, [1, 2]] = torch.log1p(z[:, [1, 2]])
        return torch.cat([z, x], dim=1)


def main():
    rng = np.random.default_rng(12)
    batch = np.stack([rng.integers(1, 2000, 8), rng.lognormal(3.0, 1.0, 8), rng.poisson(2.0, 8),
                      rng.integers(0, 60, 8), rng.uniform(0, 30, 8), rng.integers(18, 80, 8)], axis=1)
    batch = batch.astype(np.float32)
    got = FeatureEncoder()(torch.tensor(batch)).numpy()
    logged = batch.copy()
    logged[:, [1, 2]] = np.log1p(logged[:, [1, 2]])
    want = np.concatenate([logged, batch], axis=1)
    np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-6)


main()
