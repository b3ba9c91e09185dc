import numpy as np
import pytest

from binstats import approx_quantile, auto_bins, histogram, uniform_edges


def test_auto_bins():
    assert auto_bins(40) == 7
    assert auto_bins(40, "sqrt") == 7
    with pytest.raises(ValueError):
        auto_bins(40, "scott")


def test_edges_span_the_data(latencies):
    edges = uniform_edges(latencies, 5)
    assert edges[0] == latencies.min() and edges[-1] == latencies.max()


def test_counts_match_numpy(latencies):
    counts, edges = histogram(latencies, bins=5)
    assert counts.tolist() == np.histogram(latencies, bins=edges)[0].tolist()


def test_median_is_close(latencies):
    counts, edges = histogram(latencies, bins=8)
    assert abs(approx_quantile(counts, edges, 0.5) - np.median(latencies)) < 10
