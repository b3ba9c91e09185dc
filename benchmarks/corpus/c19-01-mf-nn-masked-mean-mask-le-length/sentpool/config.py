from dataclasses import dataclass


@dataclass
class PoolConfig:
    dim: int = 8
    out_dim: int = 6
    max_vocab: int = 64
    pad_id: int = 0
    unk_id: int = 1
    seed: int = 7
    lowercase: bool = True
