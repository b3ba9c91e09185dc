import logging

import torch
from torch import nn

from .data import batches

log = logging.getLogger(__name__)


def train_epoch(model, opt, accounts, cfg):
    model.train()
    criterion = nn.BCEWithLogitsLoss(pos_weight=torch.tensor(cfg.pos_weight))
    total, steps = 0.0, 0
    for plans, numeric, labels in batches(accounts, cfg.batch_size):
        logits = model(plans, numeric)
        loss = criterion(logits, labels)
        opt.zero_grad()
        loss.backward()
        nn.utils.clip_grad_norm_(model.parameters(), 1.0)
        opt.step()
        total, steps = total + loss.item(), steps + 1
    return total / max(steps, 1)


@torch.no_grad()
def evaluate(model, accounts, cfg):
    model.eval()
    tp = fn = right = seen = 0
    for plans, numeric, labels in batches(accounts, cfg.batch_size):
        pred = (model(plans, numeric).reshape(-1) > 0).float()
        right += (pred == labels).sum().item()
        seen += labels.numel()
        tp += ((pred == 1) & (labels == 1)).sum().item()
        fn += ((pred == 0) & (labels == 1)).sum().item()
    return {"acc": right / max(seen, 1), "recall": tp / max(tp + fn, 1)}
