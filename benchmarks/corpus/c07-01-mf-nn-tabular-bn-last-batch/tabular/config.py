"""Hyper-parameters for the churn model (kept in one place so sweeps can override them)."""
from dataclasses import dataclass, field


@dataclass
class TrainConfig:
    n_rows: int = 101  # customers in this week's export
    n_numeric: int = 6  # tenure, monthly charges, tickets, logins, ...
    plans: int = 4  # categorical: subscription plan
    regions: int = 7  # categorical: sales region
    embed_dim: int = 4
    hidden: list = field(default_factory=lambda: [32, 16])
    dropout: float = 0.1
    batch_size: int = 16
    val_fraction: float = 0.2
    lr: float = 1e-2
    epochs: int = 3
    seed: int = 0
