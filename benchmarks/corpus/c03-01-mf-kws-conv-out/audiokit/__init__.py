"""audiokit: features, data and models for the keyword-spotting experiments."""
from .config import KWSConfig
from .data import SyntheticClips
from .model import KeywordNet

__all__ = ["KWSConfig", "KeywordNet", "SyntheticClips"]
