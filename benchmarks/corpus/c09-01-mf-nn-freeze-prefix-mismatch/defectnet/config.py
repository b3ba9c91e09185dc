from dataclasses import dataclass, field


@dataclass
class DataConfig:
    image_size: int = 32
    n_train: int = 64
    batch_size: int = 16
    defect_rate: float = 0.25


@dataclass
class TrainConfig:
    epochs: int = 1
    lr: float = 3e-4
    weight_decay: float = 0.01
    # linear probe: keep the pretrained backbone frozen, train only the classifier
    trainable_prefixes: tuple = ("classifier.",)
    log_every: int = 2
    data: DataConfig = field(default_factory=DataConfig)
