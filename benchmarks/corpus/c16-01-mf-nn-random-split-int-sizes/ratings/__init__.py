"""Small movie-rating recommender: data, splits and a matrix-factorization model."""

from .config import TrainConfig
from .data import RatingsDataset, load_ratings
from .model import MatrixFactorization
from .splits import make_splits, split_sizes

__all__ = ["TrainConfig", "RatingsDataset", "load_ratings", "MatrixFactorization", "make_splits", "split_sizes"]
