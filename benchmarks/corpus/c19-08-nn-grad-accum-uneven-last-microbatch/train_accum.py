"""Train the rent-price regressor with gradient accumulation (the batch does not fit the edge box).
Before training, check that accumulating over micro-batches gives the full-batch gradient.

    python train_accum.py [--batch 10] [--micro 4] [--epochs 3]
"""

import argparse
import logging
import math

import torch
import torch.nn.functional as F
from torch import nn

log = logging.getLogger("train_accum")


class RentRegressor(nn.Module):
    def __init__(self, n_features, hidden=16):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(n_features, hidden), nn.ReLU(), nn.Linear(hidden, 1))

    def forward(self, x):
        return self.net(x).squeeze(-1)


def make_listings(n, seed):
    g = torch.Generator().manual_seed(seed)
    x = torch.randn(n, 6, generator=g)  # area, rooms, floor, age, distance, rating (standardized)
    y = 1.5 * x[:, 0] + 0.5 * x[:, 1] - 0.8 * x[:, 4] + 0.1 * torch.randn(n, generator=g)
    return x, y


def micro_batches(x, y, size):
    for start in range(0, len(x), size):
        yield x[start:start + size], y[start:start + size]


def accumulated_grads(model, x, y, micro):
    model.zero_grad()
    steps = math.ceil(len(x) / micro)
    for xb, yb in micro_batches(x, y, micro):
        loss = F.mse_loss(model(xb), yb) / steps
        loss.backward()
    return {name: p.grad.clone() for name, p in model.named_parameters()}


def full_batch_grads(model, x, y):
    model.zero_grad()
    F.mse_loss(model(x), y).backward()
    return {name: p.grad.clone() for name, p in model.named_parameters()}


def train(model, x, y, micro, epochs, lr):
    opt = torch.optim.SGD(model.parameters(), lr=lr)
    for epoch in range(epochs):
        accumulated_grads(model, x, y, micro)
        opt.step()
        with torch.no_grad():
            log.info("epoch %d: mse %.4f", epoch, F.mse_loss(model(x), y).item())


def main():
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("--batch", type=int, default=10)
    p.add_argument("--micro", type=int, default=4)
    p.add_argument("--epochs", type=int, default=3)
    p.add_argument("--lr", type=float, default=0.05)
    p.add_argument("--seed", type=int, default=2)
    args = p.parse_args()
    logging.basicConfig(level=logging.WARNING)

    torch.manual_seed(args.seed)
    model = RentRegressor(6)
    x, y = make_listings(args.batch, seed=5)
    acc = accumulated_grads(model, x, y, args.micro)
    full = full_batch_grads(model, x, y)
    for name in full:
        torch.testing.assert_close(acc[name], full[name])
    log.info("accumulation check passed for %d parameters", len(full))
    train(model, x, y, args.micro, args.epochs, args.lr)
    print("trained", args.epochs, "epochs")


if __name__ == "__main__":
    main()
