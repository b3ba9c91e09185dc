from dataclasses import dataclass


@dataclass
class ForecastConfig:
    window: int = 24        # hours of history the model sees
    horizon: int = 6        # hours ahead it predicts
    hidden: int = 64
    batch_size: int = 16
    epochs: int = 3
    lr: float = 3e-3
    days: int = 8           # days of meter readings to train on
    seed: int = 7
