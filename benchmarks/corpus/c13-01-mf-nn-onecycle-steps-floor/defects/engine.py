import torch
from torch import nn


def train_epoch(model, opt, sched, loader):
    model.train()
    criterion = nn.CrossEntropyLoss(label_smoothing=0.05)
    total, steps = 0.0, 0
    for x, y in loader:
        loss = criterion(model(x), y)
        opt.zero_grad()
        loss.backward()
        nn.utils.clip_grad_norm_(model.parameters(), 1.0)
        opt.step()
        sched.step()
        total, steps = total + loss.item(), steps + 1
    return total / max(steps, 1)


@torch.no_grad()
def evaluate(model, loader):
    model.eval()
    right = seen = 0
    for x, y in loader:
        right += (model(x).argmax(dim=-1) == y).sum().item()
        seen += y.numel()
    return right / max(seen, 1)
