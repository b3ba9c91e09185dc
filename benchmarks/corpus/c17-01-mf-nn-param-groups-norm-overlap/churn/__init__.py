"""Customer churn model: synthetic subscription data, a small MLP and its training helpers."""

from .config import TrainConfig
from .data import make_customers, split_loaders
from .model import ChurnNet
from .optim import build_optimizer, param_groups

__all__ = ["TrainConfig", "make_customers", "split_loaders", "ChurnNet", "build_optimizer", "param_groups"]
