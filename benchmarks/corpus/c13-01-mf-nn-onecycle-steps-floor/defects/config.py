from dataclasses import dataclass

SENSORS = ("current_mean", "current_std", "voltage_mean", "voltage_std", "wire_speed", "seam_temp")
CLASSES = ("ok", "porosity", "undercut", "spatter")


@dataclass
class DefectConfig:
    n_features: int = len(SENSORS)
    n_classes: int = len(CLASSES)
    hidden: int = 32
    dropout: float = 0.1
    epochs: int = 3
    batch_size: int = 16
    max_lr: float = 3e-3
    weight_decay: float = 1e-4
    pct_start: float = 0.3
    n_welds: int = 90
    val_fraction: float = 0.2
