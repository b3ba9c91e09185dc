import logging

import torch

log = logging.getLogger(__name__)


def train_epoch(model, loader, optimizer, loss_fn):
    model.train()
    total, seen = 0.0, 0
    for ids, lengths, labels in loader:
        optimizer.zero_grad()
        logits = model(ids, lengths)
        loss = loss_fn(logits, labels)
        loss.backward()
        optimizer.step()
        total += loss.item() * len(labels)
        seen += len(labels)
    return total / max(seen, 1)


@torch.no_grad()
def evaluate(model, loader):
    model.eval()
    correct = seen = 0
    for ids, lengths, labels in loader:
        correct += (model(ids, lengths).argmax(-1) == labels).sum().item()
        seen += len(labels)
    return correct / max(seen, 1)
