"""Train the weld-defect classifier on the line's sensor snapshot (one-cycle schedule)."""
import argparse
import logging

import torch

from defects.config import DefectConfig
from defects.data import make_loaders, make_welds
from defects.engine import evaluate, train_epoch
from defects.model import DefectNet
from defects.schedule import make_optimizer

log = logging.getLogger("train_defects")


def parse_args():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--epochs", type=int, default=None)
    parser.add_argument("--seed", type=int, default=3)
    parser.add_argument("--save", default=None, help="where to write the trained weights")
    return parser.parse_args()


def main():
    args = parse_args()
    logging.basicConfig(level=logging.INFO, format="%(name)s: %(message)s")
    torch.manual_seed(args.seed)
    cfg = DefectConfig()
    if args.epochs is not None:
        cfg.epochs = args.epochs
    train_loader, val_loader = make_loaders(make_welds(cfg, args.seed), cfg)
    model = DefectNet(cfg.n_features, cfg.hidden, cfg.n_classes, cfg.dropout)
    opt, sched = make_optimizer(model, cfg, len(train_loader.dataset))
    for epoch in range(cfg.epochs):
        loss = train_epoch(model, opt, sched, train_loader)
        acc = evaluate(model, val_loader)
        log.info("epoch %d: loss %.4f, val acc %.3f, lr %.2e", epoch, loss, acc, sched.get_last_lr()[0])
    if args.save:
        torch.save(model.state_dict(), args.save)


if __name__ == "__main__":
    main()
