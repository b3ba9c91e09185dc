from dataclasses import dataclass

NUMERIC = ("tenure_months", "monthly_fee", "support_tickets", "logins_30d", "late_payments")


@dataclass
class ChurnConfig:
    n_plans: int = 4  # basic, standard, family, business
    n_numeric: int = len(NUMERIC)
    plan_dim: int = 4
    hidden: int = 32
    dropout: float = 0.1
    epochs: int = 2
    batch_size: int = 8
    lr: float = 1e-3
    weight_decay: float = 1e-2
    n_accounts: int = 64
    val_fraction: float = 0.25
    pos_weight: float = 3.0  # churners are rare
