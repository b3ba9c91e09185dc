import logging

import torch

log = logging.getLogger("defectnet.engine")


def train_step(model, batch, criterion, optimizer) -> float:
    feats, target = batch
    optimizer.zero_grad()
    loss = criterion(model(feats), target)
    loss.backward()
    torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
    optimizer.step()
    return loss.item()


@torch.no_grad()
def evaluate(model, loader) -> float:
    model.eval()
    correct = total = 0
    for feats, target in loader:
        correct += (model(feats).argmax(-1) == target).sum().item()
        total += target.numel()
    return correct / max(total, 1)


def fit(model, train_loader, val_loader, criterion, optimizer, epochs: int) -> list[float]:
    history = []
    for epoch in range(epochs):
        model.train()
        losses = [train_step(model, batch, criterion, optimizer) for batch in train_loader]
        acc = evaluate(model, val_loader)
        history.append(acc)
        log.info("epoch %d: loss %.4f, val acc %.3f", epoch, sum(losses) / len(losses), acc)
    return history
