from dataclasses import dataclass


@dataclass
class MixerConfig:
    n_channels: int = 7
    seq_len: int = 96
    horizon: int = 24
    patch_len: int = 16
    stride: int = 8  # overlapping patches, as in PatchTST
    d_model: int = 64
    expansion: int = 2
    n_blocks: int = 2
    dropout: float = 0.1

    @property
    def num_patches(self) -> int:
        """How many patches the patcher cuts from one input window."""
        return self.seq_len // self.patch_len

    def describe(self) -> str:
        return (f"{self.n_channels} channels, window {self.seq_len} -> {self.num_patches} patches of "
                f"{self.patch_len}, d_model {self.d_model}, {self.n_blocks} blocks")
