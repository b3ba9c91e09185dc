"""Train the churn classifier on synthetic subscription data.

    python train_churn.py --epochs 3 --lr 3e-3
"""

import argparse
import logging

import torch
from torch import nn

from churn import ChurnNet, TrainConfig, build_optimizer, make_customers, split_loaders
from churn.optim import build_scheduler

log = logging.getLogger("train_churn")


def parse_args():
    cfg = TrainConfig()
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("--epochs", type=int, default=cfg.epochs)
    p.add_argument("--lr", type=float, default=cfg.lr)
    p.add_argument("--weight-decay", type=float, default=cfg.weight_decay)
    p.add_argument("--seed", type=int, default=cfg.seed)
    args = p.parse_args()
    cfg.epochs, cfg.lr, cfg.weight_decay, cfg.seed = args.epochs, args.lr, args.weight_decay, args.seed
    return cfg


def evaluate(model, loader):
    model.eval()
    correct = total = 0
    with torch.no_grad():
        for plan, numeric, churned in loader:
            pred = (model(plan, numeric) > 0).float()
            correct += (pred == churned).sum().item()
            total += len(churned)
    return correct / max(total, 1)


def main():
    logging.basicConfig(level=logging.INFO, format="%(levelname)s %(name)s: %(message)s")
    cfg = parse_args()
    torch.manual_seed(cfg.seed)
    data = make_customers(cfg.n_customers, len(cfg.plans), cfg.seed)
    train_loader, val_loader = split_loaders(data, cfg.batch_size, cfg.seed)
    model = ChurnNet(len(cfg.plans), cfg.n_numeric, cfg.hidden, cfg.n_blocks, cfg.dropout)
    optimizer = build_optimizer(model, cfg.lr, cfg.weight_decay, cfg.no_decay)
    scheduler = build_scheduler(optimizer, cfg.epochs, len(train_loader))
    loss_fn = nn.BCEWithLogitsLoss()
    for epoch in range(cfg.epochs):
        model.train()
        running = 0.0
        for plan, numeric, churned in train_loader:
            optimizer.zero_grad()
            loss = loss_fn(model(plan, numeric), churned)
            loss.backward()
            optimizer.step()
            scheduler.step()
            running += loss.item() * len(churned)
        acc = evaluate(model, val_loader)
        log.info("epoch %d: train loss %.4f, val accuracy %.3f", epoch + 1, running / len(train_loader.dataset), acc)
    log.info("done")


if __name__ == "__main__":
    main()
