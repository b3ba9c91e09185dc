"""tabnet: a small tabular classifier, its config and checkpoint helpers."""

from .checkpoint import load_for_eval, save_checkpoint
from .config import TabConfig
from .model import TabularNet

__all__ = ["TabConfig", "TabularNet", "load_for_eval", "save_checkpoint"]
