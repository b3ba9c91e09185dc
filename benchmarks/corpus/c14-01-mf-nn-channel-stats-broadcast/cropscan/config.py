from dataclasses import dataclass, field

CLASSES = ("healthy", "drought", "nitrogen", "pest")


@dataclass
class ScanConfig:
    image_size: int = 16
    channels: int = 3  # red, green, near-infrared
    n_classes: int = len(CLASSES)
    n_tiles: int = 64
    batch_size: int = 8
    epochs: int = 2
    lr: float = 2e-3
    pipeline: tuple = ("normalize", "hflip")
    hflip_p: float = 0.5
    widths: list = field(default_factory=lambda: [16, 32])
