from dataclasses import dataclass, field

INTENTS = ("billing", "shipping", "returns", "account", "cancel_order")


@dataclass
class TrainConfig:
    n_tickets: int = 200
    n_features: int = 24  # hashed bag-of-words features of the ticket text
    hidden: int = 32
    epochs: int = 2
    batch_size: int = 32
    lr: float = 1e-3
    val_fraction: float = 0.2
    intents: tuple = field(default=INTENTS)
