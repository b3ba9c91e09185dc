"""Linear-probe the pretrained parts model on this line's defect crops."""
import argparse
import logging

import torch

from defectnet.config import TrainConfig
from defectnet.data import make_loader
from defectnet.engine import build_optimizer, freeze_except, train_epoch
from defectnet.model import load_pretrained

log = logging.getLogger("finetune")


@torch.no_grad()
def accuracy(model, loader):
    model.eval()
    correct = total = 0
    for images, labels in loader:
        correct += (model(images).argmax(1) == labels).sum().item()
        total += len(labels)
    return correct / max(total, 1)


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--epochs", type=int, default=None)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--save", default=None, help="write the fine-tuned weights here")
    args = parser.parse_args()
    logging.basicConfig(level=logging.INFO, format="%(name)s: %(message)s")
    cfg = TrainConfig()
    if args.epochs is not None:
        cfg.epochs = args.epochs
    model = load_pretrained(args.seed)
    freeze_except(model, cfg.trainable_prefixes)
    opt = build_optimizer(model, cfg)
    loader = make_loader(cfg.data, args.seed)
    for epoch in range(cfg.epochs):
        train_epoch(model, loader, opt, cfg, epoch)
    log.info("done: %d epoch(s) on %d crops, train accuracy %.3f", cfg.epochs, cfg.data.n_train,
             accuracy(model, loader))
    if args.save:
        torch.save(model.state_dict(), args.save)


if __name__ == "__main__":
    main()
