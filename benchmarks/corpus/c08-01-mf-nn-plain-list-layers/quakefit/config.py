from dataclasses import dataclass, field


@dataclass
class TrainConfig:
    n_samples: int = 256
    n_features: int = 8
    hidden: list[int] = field(default_factory=lambda: [32, 32])
    lr: float = 3e-3
    weight_decay: float = 1e-4
    epochs: int = 5
    batch_size: int = 32
    seed: int = 7

    @property
    def dims(self):
        return [self.n_features, *self.hidden, 1]
