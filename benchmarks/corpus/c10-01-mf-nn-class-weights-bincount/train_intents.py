"""Train the support-ticket intent classifier on the chronological ticket export."""
import argparse
import logging

import torch

from intentcls.config import TrainConfig
from intentcls.data import class_weights, load_tickets, split_by_time
from intentcls.engine import evaluate, train_epoch
from intentcls.model import IntentClassifier

log = logging.getLogger("train_intents")


def parse_args():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--epochs", type=int, default=None)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--no-weights", action="store_true", help="plain (unweighted) cross-entropy")
    parser.add_argument("--save", default=None)
    return parser.parse_args()


def main():
    args = parse_args()
    logging.basicConfig(level=logging.INFO, format="%(name)s: %(message)s")
    torch.manual_seed(args.seed)
    cfg = TrainConfig()
    if args.epochs is not None:
        cfg.epochs = args.epochs
    features, labels = load_tickets(cfg, args.seed)
    (x_train, y_train), (x_val, y_val) = split_by_time(features, labels, cfg.val_fraction)
    log.info("%d train / %d validation tickets, %d intents", len(y_train), len(y_val), len(cfg.intents))
    weights = None if args.no_weights else class_weights(y_train, len(cfg.intents))
    model = IntentClassifier(cfg.n_features, len(cfg.intents), cfg.hidden)
    opt = torch.optim.Adam(model.parameters(), lr=cfg.lr)
    for epoch in range(cfg.epochs):
        loss = train_epoch(model, opt, x_train, y_train, weights, cfg)
        log.info("epoch %d: loss %.4f, val accuracy %.3f", epoch, loss, evaluate(model, x_val, y_val))
    if args.save:
        torch.save(model.state_dict(), args.save)


if __name__ == "__main__":
    main()
