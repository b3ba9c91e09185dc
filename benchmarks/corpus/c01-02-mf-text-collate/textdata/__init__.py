from .dataset import SentenceDataset
from .vocab import CharVocab

__all__ = ["CharVocab", "SentenceDataset"]
