"""Churn prediction on the CRM export: config, data and the tabular model."""
from .config import TrainConfig
from .data import make_loaders
from .model import TabularNet

__all__ = ["TrainConfig", "TabularNet", "make_loaders"]
