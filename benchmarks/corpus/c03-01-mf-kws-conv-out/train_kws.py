"""Keyword spotting: a small CNN over log-mel spectrograms (one epoch on synthetic clips).

Usage: python train_kws.py [--epochs N] [--batch-size B] [--n-mels 40]
"""
import argparse
import logging

import torch
import torch.nn.functional as F

from audiokit import KWSConfig, KeywordNet, SyntheticClips

log = logging.getLogger("train_kws")


def parse_args(argv=None):
    p = argparse.ArgumentParser(description="train a keyword-spotting CNN on synthetic clips")
    p.add_argument("--epochs", type=int, default=1)
    p.add_argument("--batch-size", type=int, default=8)
    p.add_argument("--n-mels", type=int, default=40)
    p.add_argument("--lr", type=float, default=1e-3)
    return p.parse_args(argv)


def evaluate(model, clips):
    model.eval()
    correct = 0
    with torch.no_grad():
        for spec, label in clips.batches(16):
            correct += (model(spec).argmax(-1) == label).sum().item()
    model.train()
    return correct / len(clips)


def main(argv=None):
    args = parse_args(argv)
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s %(message)s")
    torch.manual_seed(0)
    cfg = KWSConfig(n_mels=args.n_mels)
    train = SyntheticClips(cfg, n=32, seed=0)
    val = SyntheticClips(cfg, n=16, seed=1)
    model = KeywordNet(cfg)
    opt = torch.optim.AdamW(model.parameters(), lr=args.lr)
    log.info("model: %d parameters", sum(p.numel() for p in model.parameters()))
    for epoch in range(args.epochs):
        for step, (spec, label) in enumerate(train.batches(args.batch_size)):
            loss = F.cross_entropy(model(spec), label)
            opt.zero_grad()
            loss.backward()
            opt.step()
            if step % 2 == 0:
                log.info("epoch %d step %d loss %.4f", epoch, step, loss.item())
        log.info("epoch %d val acc %.3f", epoch, evaluate(model, val))


if __name__ == "__main__":
    main()
