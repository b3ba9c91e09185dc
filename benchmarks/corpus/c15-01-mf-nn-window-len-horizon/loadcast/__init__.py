"""Short-term load forecasting for a building's electricity meter."""

from .config import ForecastConfig
from .model import WindowMLP
from .series import load_series
from .windows import SlidingWindows

__all__ = ["ForecastConfig", "SlidingWindows", "WindowMLP", "load_series"]
