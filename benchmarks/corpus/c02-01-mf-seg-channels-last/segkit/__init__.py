"""segkit: data and model pieces for the tile segmentation experiments."""
from .config import SegConfig
from .dataset import SyntheticTiles
from .model import TinySegNet
from .transforms import default_transforms

__all__ = ["SegConfig", "SyntheticTiles", "TinySegNet", "default_transforms"]
