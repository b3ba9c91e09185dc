"""Train the tabular classifier for a few steps, checkpoint it, and evaluate the checkpoint."""

import argparse
import logging

import torch
from tabnet import TabConfig, TabularNet, load_for_eval, save_checkpoint
from torch import nn

log = logging.getLogger("train_tabular")


def make_data(cfg, n=256, seed=0):
    gen = torch.Generator().manual_seed(seed)
    x = torch.randn(n, cfg.num_features, generator=gen)
    w = torch.randn(cfg.num_features, cfg.num_classes, generator=gen)
    y = (x @ w).argmax(dim=1)
    return x, y


def train(model, x, y, cfg, steps):
    opt = torch.optim.AdamW(model.parameters(), lr=cfg.lr)
    loss_fn = nn.CrossEntropyLoss()
    for step in range(steps):
        idx = torch.arange(step * 32, (step + 1) * 32) % len(x)
        loss = loss_fn(model(x[idx]), y[idx])
        opt.zero_grad()
        loss.backward()
        opt.step()
        log.info("step %d loss %.4f", step, loss.item())
    return model


@torch.no_grad()
def accuracy(model, x, y):
    return (model(x).argmax(dim=1) == y).float().mean().item()


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--steps", type=int, default=3)
    parser.add_argument("--no-compile", action="store_true")
    args = parser.parse_args()
    logging.basicConfig(level=logging.INFO, format="%(name)s: %(message)s")

    torch.manual_seed(0)
    cfg = TabConfig(compile=not args.no_compile)
    log.info("%s", cfg.describe())
    x, y = make_data(cfg)
    model = TabularNet(cfg)
    if cfg.compile:
        model = torch.compile(model, backend=cfg.backend)
    train(model, x, y, cfg, args.steps)
    buffer = save_checkpoint(model, args.steps)

    evaluated = load_for_eval(buffer, cfg)
    log.info("eval accuracy %.3f", accuracy(evaluated, x, y))


if __name__ == "__main__":
    main()
