"""Train the subscription-churn classifier on the monthly account snapshot."""
import argparse
import logging

import torch

from churn.config import ChurnConfig
from churn.data import make_accounts, split
from churn.engine import evaluate, train_epoch
from churn.model import ChurnNet

log = logging.getLogger("train_churn")


def parse_args():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--epochs", type=int, default=None)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--save", default=None, help="where to write the trained weights")
    return parser.parse_args()


def main():
    args = parse_args()
    logging.basicConfig(level=logging.INFO, format="%(name)s: %(message)s")
    torch.manual_seed(args.seed)
    cfg = ChurnConfig()
    if args.epochs is not None:
        cfg.epochs = args.epochs
    train, val = split(make_accounts(cfg, args.seed), cfg.val_fraction)
    model = ChurnNet(cfg.n_plans, cfg.n_numeric, cfg.plan_dim, cfg.hidden, cfg.dropout)
    opt = torch.optim.AdamW(model.parameters(), lr=cfg.lr, weight_decay=cfg.weight_decay)
    for epoch in range(cfg.epochs):
        loss = train_epoch(model, opt, train, cfg)
        metrics = evaluate(model, val, cfg)
        log.info("epoch %d: loss %.4f, val acc %.3f, val recall %.3f", epoch, loss, metrics["acc"], metrics["recall"])
    if args.save:
        torch.save(model.state_dict(), args.save)


if __name__ == "__main__":
    main()
