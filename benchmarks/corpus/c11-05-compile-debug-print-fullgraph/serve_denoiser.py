"""Serve the audio denoiser: compile it once at start-up, then clean incoming frames."""
import argparse
import logging
from dataclasses import dataclass

import torch
from torch import nn

log = logging.getLogger("serve_denoiser")


@dataclass
class DenoiserConfig:
    n_bins: int = 64
    hidden: int = 96
    floor_db: float = -60.0
    debug_shapes: bool = True  # left on from the shape bring-up; the serving config never overrides it


class SpectralDenoiser(nn.Module):
    """Predicts a [0, 1] mask per frequency bin and applies it to the magnitude spectrum."""

    def __init__(self, cfg):
        super().__init__()
        self.cfg = cfg
        self.net = nn.Sequential(nn.Linear(cfg.n_bins, cfg.hidden), nn.ReLU(), nn.Linear(cfg.hidden, cfg.n_bins))

    def forward(self, mag):
        if self.cfg.debug_shapes:
            print(f"denoiser input {tuple(mag.shape)}")
        floor = 10 ** (self.cfg.floor_db / 20)
        mask = torch.sigmoid(self.net(torch.log(mag + floor)))
        return mag * mask


def load_model(cfg, seed=0):
    torch.manual_seed(seed)  # stands in for loading the released checkpoint
    return SpectralDenoiser(cfg).eval()


def fake_frames(n, n_bins, seed=0):
    g = torch.Generator().manual_seed(seed)
    return torch.rand(n, n_bins, generator=g) * 2


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--frames", type=int, default=8)
    parser.add_argument("--backend", default="eager", help="torch.compile backend (eager: no codegen)")
    parser.add_argument("--no-compile", action="store_true")
    args = parser.parse_args()
    logging.basicConfig(level=logging.INFO, format="%(name)s: %(message)s")
    cfg = DenoiserConfig()
    model = load_model(cfg)
    if not args.no_compile:
        # fullgraph: a graph break would silently fall back to slow Python on the hot path
        model = torch.compile(model, backend=args.backend, fullgraph=True)
    frames = fake_frames(args.frames, cfg.n_bins)
    with torch.no_grad():
        clean = model(frames)
    log.info("cleaned %d frames, mean gain %.3f", len(frames), (clean.sum() / frames.sum()).item())


if __name__ == "__main__":
    main()
