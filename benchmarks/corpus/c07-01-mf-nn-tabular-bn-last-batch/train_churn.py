"""Weekly churn-model refresh: train on the latest CRM export and report validation accuracy."""
import argparse
import logging

import torch
import torch.nn.functional as F

from tabular import TabularNet, TrainConfig, make_loaders

log = logging.getLogger("churn")


@torch.no_grad()
def evaluate(model, loader):
    model.eval()
    correct = total = 0
    for numeric, categorical, churned in loader:
        pred = model(numeric, categorical) > 0
        correct += (pred == churned.bool()).sum().item()
        total += len(churned)
    model.train()
    return correct / max(total, 1)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--epochs", type=int, default=None)
    parser.add_argument("--lr", type=float, default=None)
    args = parser.parse_args()
    logging.basicConfig(level=logging.INFO, format="%(name)s: %(message)s")

    cfg = TrainConfig()
    cfg.epochs = args.epochs or cfg.epochs
    cfg.lr = args.lr or cfg.lr
    torch.manual_seed(cfg.seed)
    train_loader, val_loader = make_loaders(cfg)
    model = TabularNet(cfg)
    opt = torch.optim.AdamW(model.parameters(), lr=cfg.lr, weight_decay=1e-4)
    log.info("%d parameters, %d training batches", sum(p.numel() for p in model.parameters()), len(train_loader))

    for epoch in range(cfg.epochs):
        running = 0.0
        for numeric, categorical, churned in train_loader:
            loss = F.binary_cross_entropy_with_logits(model(numeric, categorical), churned)
            opt.zero_grad()
            loss.backward()
            opt.step()
            running += loss.item()
        log.info("epoch %d: loss %.3f, val acc %.3f", epoch, running / len(train_loader), evaluate(model, val_loader))
    print({"epochs": cfg.epochs, "val_acc": round(evaluate(model, val_loader), 3)})


if __name__ == "__main__":
    main()
