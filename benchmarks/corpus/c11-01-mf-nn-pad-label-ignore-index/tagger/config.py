from dataclasses import dataclass, field

TAGS = ("NOUN", "VERB", "ADJ", "NUM", "OTHER")


@dataclass
class TaggerConfig:
    vocab_size: int = 64  # hashed word ids
    emb_dim: int = 16
    hidden: int = 24
    epochs: int = 1
    batch_size: int = 4
    lr: float = 3e-3
    n_queries: int = 24
    tags: tuple = field(default=TAGS)
