"""Fit a site-amplification regressor on synthetic site descriptors."""
import argparse
import logging

import torch

from quakefit.config import TrainConfig
from quakefit.data import make_loaders
from quakefit.engine import build_optimizer, evaluate, train_epoch
from quakefit.model import AmplificationMLP, count_parameters

log = logging.getLogger("quakefit")


def parse_args():
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("--epochs", type=int, default=TrainConfig.epochs)
    p.add_argument("--lr", type=float, default=TrainConfig.lr)
    p.add_argument("--hidden", type=int, nargs="+", default=None)
    return p.parse_args()


def main():
    args = parse_args()
    logging.basicConfig(level=logging.INFO, format="%(levelname)s %(message)s")
    cfg = TrainConfig(epochs=args.epochs, lr=args.lr)
    if args.hidden:
        cfg.hidden = args.hidden
    torch.manual_seed(cfg.seed)
    train_loader, val_loader = make_loaders(cfg)
    model = AmplificationMLP(cfg.dims)
    log.info("model: dims=%s, %d trainable parameters", cfg.dims, count_parameters(model))
    opt = build_optimizer(model, cfg)
    for epoch in range(cfg.epochs):
        loss = train_epoch(model, train_loader, opt)
        mae = evaluate(model, val_loader)
        log.info("epoch %d: train mse %.4f, val mae %.4f", epoch, loss, mae)
    print(f"final val mae: {mae:.4f}")


if __name__ == "__main__":
    main()
