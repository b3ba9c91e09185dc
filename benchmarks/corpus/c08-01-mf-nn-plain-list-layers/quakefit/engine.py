import logging

import torch
import torch.nn.functional as F

log = logging.getLogger("quakefit")


def build_optimizer(model, cfg):
    decay = [p for n, p in model.named_parameters() if n.endswith("weight")]
    no_decay = [p for n, p in model.named_parameters() if not n.endswith("weight")]
    groups = [{"params": decay, "weight_decay": cfg.weight_decay}, {"params": no_decay, "weight_decay": 0.0}]
    return torch.optim.AdamW([g for g in groups if g["params"]], lr=cfg.lr)


def train_epoch(model, loader, opt):
    model.train()
    total = 0.0
    for x, y in loader:
        opt.zero_grad()
        loss = F.mse_loss(model(x), y)
        loss.backward()
        opt.step()
        total += loss.item() * len(x)
    return total / len(loader.dataset)


@torch.no_grad()
def evaluate(model, loader):
    model.eval()
    errs = [F.l1_loss(model(x), y, reduction="sum").item() for x, y in loader]
    return sum(errs) / len(loader.dataset)
