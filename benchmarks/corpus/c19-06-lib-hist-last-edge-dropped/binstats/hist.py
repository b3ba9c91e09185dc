import numpy as np

from .edges import auto_bins, uniform_edges


def histogram(values, bins=None, edges=None):
    """Counts per bin; every bin is half-open [a, b) except the last, which is closed [a, b]."""
    values = np.asarray(values, dtype=float)
    if edges is None:
        edges = uniform_edges(values, bins or auto_bins(len(values)))
    nbins = len(edges) - 1
    idx = np.searchsorted(edges, values, side="right") - 1
    keep = (idx >= 0) & (idx < nbins)
    counts = np.bincount(idx[keep], minlength=nbins)
    return counts, edges
