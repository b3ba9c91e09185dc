from dataclasses import dataclass, field


@dataclass
class SegConfig:
    tile: int = 64
    in_channels: int = 3
    num_classes: int = 4
    widths: tuple = (16, 32)
    batch_size: int = 4
    mean: tuple = field(default=(0.485, 0.456, 0.406))
    std: tuple = field(default=(0.229, 0.224, 0.225))
