import numpy as np


def approx_quantile(counts, edges, q):
    """Quantile by linear interpolation inside the bin where the cumulative count crosses q."""
    cum = np.cumsum(counts)
    target = q * cum[-1]
    i = int(np.searchsorted(cum, target))
    before = cum[i - 1] if i > 0 else 0
    frac = (target - before) / max(counts[i], 1)
    return edges[i] + frac * (edges[i + 1] - edges[i])
