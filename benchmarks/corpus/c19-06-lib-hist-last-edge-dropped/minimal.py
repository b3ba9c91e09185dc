import numpy as np


def histogram(values, edges):
    nbins = len(edges) - 1
    idx = np.searchsorted(edges, values, side="right") - 1
    keep = (idx >= 0) & (idx < nbins)
    return np.bincount(idx[keep], minlength=nbins)


def test_counts_match_numpy():
    latencies = np.round(np.random.default_rng(3).gamma(2.0, 15.0, size=40), 1)
    edges = np.linspace(latencies.min(), latencies.max(), 6)
    counts = histogram(latencies, edges)
    assert counts.tolist() == np.histogram(latencies, bins=edges)[0].tolist()
