"""A tiny convolutional classifier for synthetic shape images."""
from .config import NetConfig
from .model import ShapeNet

__all__ = ["NetConfig", "ShapeNet"]
