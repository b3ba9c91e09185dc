from dataclasses import dataclass, field


PLANS = ("basic", "standard", "premium", "family")


@dataclass
class TrainConfig:
    n_customers: int = 600
    batch_size: int = 64
    hidden: int = 48
    n_blocks: int = 2
    dropout: float = 0.1
    lr: float = 3e-3
    weight_decay: float = 0.05
    # parameters whose name contains one of these are not decayed (biases and LayerNorm gains)
    no_decay: tuple = ("bias", "norm")
    epochs: int = 3
    seed: int = 11
    plans: tuple = field(default=PLANS)

    @property
    def n_numeric(self):
        return 5
