from dataclasses import dataclass


@dataclass
class KWSConfig:
    sample_rate: int = 16000
    clip_seconds: float = 1.0
    hop_ms: int = 10
    n_mels: int = 40
    keywords: tuple = ("yes", "no", "up", "down", "left", "right", "stop", "go")
    channels: tuple = (16, 32)
    hidden: int = 64

    @property
    def n_frames(self) -> int:
        return int(self.clip_seconds * 1000 / self.hop_ms) + 1
