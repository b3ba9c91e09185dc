from dataclasses import dataclass, field


@dataclass
class ReviewConfig:
    vocab_size: int = 400
    max_tokens: int = 24
    embed_dim: int = 32
    hidden: int = 64
    n_stars: int = 5  # one class per star rating
    n_reviews: int = 600
    batch_size: int = 32
    epochs: int = 2
    lr: float = 2e-3
    seed: int = 7
    stopwords: tuple = field(default=(0, 1, 2))
