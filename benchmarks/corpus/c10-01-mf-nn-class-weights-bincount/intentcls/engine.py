import torch
import torch.nn.functional as F


def batches(x, y, batch_size):
    order = torch.randperm(len(y))
    for start in range(0, len(y), batch_size):
        idx = order[start:start + batch_size]
        yield x[idx], y[idx]


def train_epoch(model, opt, x, y, weights, cfg):
    model.train()
    total = 0.0
    for xb, yb in batches(x, y, cfg.batch_size):
        loss = F.cross_entropy(model(xb), yb, weight=weights)
        opt.zero_grad()
        loss.backward()
        opt.step()
        total += loss.item() * len(yb)
    return total / len(y)


@torch.no_grad()
def evaluate(model, x, y):
    model.eval()
    return (model(x).argmax(1) == y).float().mean().item()
