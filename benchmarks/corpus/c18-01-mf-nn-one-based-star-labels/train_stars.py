"""Train the review star classifier on synthetic product reviews.

    python train_stars.py --epochs 2 --batch-size 32
"""

import argparse
import logging

import torch
from torch import nn
from torch.utils.data import DataLoader, random_split

from reviews import ReviewConfig, ReviewDataset, StarClassifier, evaluate, make_reviews, train_epoch

log = logging.getLogger("train_stars")


def parse_args():
    cfg = ReviewConfig()
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("--epochs", type=int, default=cfg.epochs)
    p.add_argument("--batch-size", type=int, default=cfg.batch_size)
    p.add_argument("--lr", type=float, default=cfg.lr)
    p.add_argument("--seed", type=int, default=cfg.seed)
    args = p.parse_args()
    cfg.epochs, cfg.batch_size, cfg.lr, cfg.seed = args.epochs, args.batch_size, args.lr, args.seed
    return cfg


def build_loaders(cfg):
    rows = make_reviews(cfg.n_reviews, cfg.vocab_size, cfg.max_tokens, cfg.seed)
    dataset = ReviewDataset(rows, cfg.max_tokens, cfg.stopwords)
    n_val = len(dataset) // 5
    gen = torch.Generator().manual_seed(cfg.seed)
    train_set, val_set = random_split(dataset, [len(dataset) - n_val, n_val], generator=gen)
    train_loader = DataLoader(train_set, batch_size=cfg.batch_size, shuffle=True, generator=gen)
    val_loader = DataLoader(val_set, batch_size=cfg.batch_size)
    return train_loader, val_loader


def main():
    logging.basicConfig(level=logging.INFO, format="%(levelname)s %(name)s: %(message)s")
    cfg = parse_args()
    torch.manual_seed(cfg.seed)
    train_loader, val_loader = build_loaders(cfg)
    model = StarClassifier(cfg.vocab_size, cfg.embed_dim, cfg.hidden, cfg.n_stars)
    optimizer = torch.optim.Adam(model.parameters(), lr=cfg.lr)
    loss_fn = nn.CrossEntropyLoss(label_smoothing=0.05)
    for epoch in range(cfg.epochs):
        loss = train_epoch(model, train_loader, optimizer, loss_fn)
        acc = evaluate(model, val_loader)
        log.info("epoch %d: train loss %.4f, val accuracy %.3f", epoch + 1, loss, acc)
    log.info("done")


if __name__ == "__main__":
    main()
