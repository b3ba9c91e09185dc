import logging

import torch
import torch.nn.functional as F

from .data import batches

log = logging.getLogger(__name__)


def train_epoch(model, opt, queries, cfg):
    model.train()
    total, steps = 0.0, 0
    for words, tags in batches(queries, cfg.batch_size):
        logits = model(words)
        loss = F.cross_entropy(logits.reshape(-1, logits.size(-1)), tags.reshape(-1))
        opt.zero_grad()
        loss.backward()
        opt.step()
        total, steps = total + loss.item(), steps + 1
    return total / max(steps, 1)


@torch.no_grad()
def accuracy(model, queries, cfg):
    model.eval()
    right = seen = 0
    for words, tags in batches(queries, cfg.batch_size):
        keep = words != 0
        right += (model(words).argmax(-1)[keep] == tags[keep]).sum().item()
        seen += keep.sum().item()
    return right / max(seen, 1)
