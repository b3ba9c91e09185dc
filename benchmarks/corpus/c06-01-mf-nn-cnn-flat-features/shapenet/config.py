"""Hyper-parameters of ShapeNet, and the sizes derived from them."""
from dataclasses import dataclass, field


@dataclass
class NetConfig:
    image_size: int = 32
    in_channels: int = 3
    channels: tuple = (16, 32, 32)
    hidden: int = 64
    num_classes: int = 4
    dropout: float = 0.1
    derived: dict = field(default_factory=dict)

    def __post_init__(self):
        # every conv stage halves the image, so the feature map is image_size / 2**stages wide
        side = self.image_size // 2 ** len(self.channels)
        self.derived["side"] = side
        self.derived["flat_features"] = self.channels[-1] * side * side

    @property
    def flat_features(self):
        return self.derived["flat_features"]
