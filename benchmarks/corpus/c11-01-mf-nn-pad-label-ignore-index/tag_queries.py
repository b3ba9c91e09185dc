"""Train the query tagger on the labelled search-query log."""
import argparse
import logging

import torch

from tagger.config import TaggerConfig
from tagger.data import make_queries
from tagger.engine import accuracy, train_epoch
from tagger.model import QueryTagger

log = logging.getLogger("tag_queries")


def parse_args():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--epochs", type=int, default=None)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--save", default=None, help="where to write the trained weights")
    return parser.parse_args()


def main():
    args = parse_args()
    logging.basicConfig(level=logging.INFO, format="%(name)s: %(message)s")
    torch.manual_seed(args.seed)
    cfg = TaggerConfig()
    if args.epochs is not None:
        cfg.epochs = args.epochs
    queries = make_queries(cfg, args.seed)
    split = int(len(queries) * 0.75)
    train, val = queries[:split], queries[split:]
    model = QueryTagger(cfg.vocab_size, len(cfg.tags), cfg.emb_dim, cfg.hidden)
    opt = torch.optim.Adam(model.parameters(), lr=cfg.lr)
    for epoch in range(cfg.epochs):
        loss = train_epoch(model, opt, train, cfg)
        log.info("epoch %d: loss %.4f, val accuracy %.3f", epoch, loss, accuracy(model, val, cfg))
    if args.save:
        torch.save(model.state_dict(), args.save)


if __name__ == "__main__":
    main()
