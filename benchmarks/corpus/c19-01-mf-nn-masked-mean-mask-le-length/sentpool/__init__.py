"""Sentence embeddings: a toy tokenizer, padded batches, a bag-of-embeddings encoder with masked mean pooling."""

from .config import PoolConfig
from .data import Vocab, collate, load_sentences
from .masks import length_mask
from .pooling import MaskedMeanPool, SentenceEncoder

__all__ = ["PoolConfig", "Vocab", "collate", "load_sentences", "length_mask", "MaskedMeanPool",
           "SentenceEncoder"]
