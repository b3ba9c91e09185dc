from dataclasses import dataclass, field


@dataclass
class TrainConfig:
    dim: int = 8
    epochs: int = 4
    batch_size: int = 8
    lr: float = 0.05
    weight_decay: float = 1e-4
    seed: int = 7
    fractions: tuple = field(default=(0.7, 0.15, 0.15))  # train / val / test
