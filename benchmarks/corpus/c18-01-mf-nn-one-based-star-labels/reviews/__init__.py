"""Product-review star classifier: synthetic reviews, a bag-of-embeddings model and its training loop."""

from .config import ReviewConfig
from .data import ReviewDataset, make_reviews
from .engine import evaluate, train_epoch
from .model import StarClassifier

__all__ = ["ReviewConfig", "ReviewDataset", "make_reviews", "StarClassifier", "train_epoch", "evaluate"]
