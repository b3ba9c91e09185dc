"""binstats: fixed-width histograms and histogram summaries for latency dashboards."""

from .edges import auto_bins, uniform_edges
from .hist import histogram
from .summary import approx_quantile

__version__ = "0.4.1"
__all__ = ["auto_bins", "uniform_edges", "histogram", "approx_quantile"]
