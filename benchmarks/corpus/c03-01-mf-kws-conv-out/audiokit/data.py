"""Synthetic log-mel clips: one frequency band lights up per keyword, plus noise."""
import torch


class SyntheticClips:
    def __init__(self, cfg, n, seed=0):
        g = torch.Generator().manual_seed(seed)
        self.labels = torch.randint(0, len(cfg.keywords), (n,), generator=g)
        spec = torch.randn(n, 1, cfg.n_mels, cfg.n_frames, generator=g) * 0.1
        band = cfg.n_mels // len(cfg.keywords)
        for i, label in enumerate(self.labels.tolist()):
            spec[i, 0, label * band:(label + 1) * band] += 1.0
        self.spec = spec

    def __len__(self):
        return len(self.labels)

    def batches(self, batch_size):
        for start in range(0, len(self), batch_size):
            yield self.spec[start:start + batch_size], self.labels[start:start + batch_size]
