import logging

import torch
import torch.nn.functional as F

log = logging.getLogger(__name__)


def freeze_except(model, prefixes):
    """Freeze every parameter whose name does not start with one of ``prefixes``."""
    for name, param in model.named_parameters():
        param.requires_grad = name.startswith(prefixes)
    trainable = sum(p.numel() for p in model.parameters() if p.requires_grad)
    log.info("trainable parameters: %d of %d", trainable, sum(p.numel() for p in model.parameters()))


def build_optimizer(model, cfg):
    return torch.optim.AdamW(model.parameters(), lr=cfg.lr, weight_decay=cfg.weight_decay)


def train_epoch(model, loader, opt, cfg, epoch):
    model.train()
    for step, (images, labels) in enumerate(loader):
        loss = F.cross_entropy(model(images), labels)
        opt.zero_grad()
        loss.backward()
        opt.step()
        if step % cfg.log_every == 0:
            log.info("epoch %d step %d loss %.4f", epoch, step, loss.item())
