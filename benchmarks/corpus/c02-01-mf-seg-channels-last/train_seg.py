"""Train a tiny segmentation net on synthetic satellite tiles (project entry point).

Usage: python train_seg.py [--epochs N] [--batch-size B] [--tile 64]
"""
import argparse
import logging

import torch
import torch.nn.functional as F
from torch.utils.data import DataLoader

from segkit import SegConfig, SyntheticTiles, TinySegNet, default_transforms

log = logging.getLogger("train_seg")


def parse_args(argv=None):
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--epochs", type=int, default=1)
    p.add_argument("--batch-size", type=int, default=4)
    p.add_argument("--tile", type=int, default=64)
    p.add_argument("--lr", type=float, default=3e-3)
    return p.parse_args(argv)


def pixel_accuracy(logits, mask):
    return (logits.argmax(1) == mask).float().mean().item()


def train(cfg: SegConfig, epochs: int, lr: float) -> None:
    data = SyntheticTiles(n=16, tile=cfg.tile, classes=cfg.num_classes, transform=default_transforms(cfg))
    loader = DataLoader(data, batch_size=cfg.batch_size, shuffle=True, num_workers=0)
    model = TinySegNet(cfg)
    opt = torch.optim.Adam(model.parameters(), lr=lr)
    for epoch in range(epochs):
        for step, (image, mask) in enumerate(loader):
            logits = model(image)
            loss = F.cross_entropy(logits, mask)
            opt.zero_grad()
            loss.backward()
            opt.step()
            log.info("epoch %d step %d loss %.4f acc %.3f", epoch, step, loss.item(), pixel_accuracy(logits, mask))


def main(argv=None) -> None:
    args = parse_args(argv)
    logging.basicConfig(level=logging.INFO, format="%(levelname)s %(name)s: %(message)s")
    torch.manual_seed(0)
    cfg = SegConfig(tile=args.tile, batch_size=args.batch_size)
    log.info("config: %s", cfg)
    train(cfg, args.epochs, args.lr)


if __name__ == "__main__":
    main()
