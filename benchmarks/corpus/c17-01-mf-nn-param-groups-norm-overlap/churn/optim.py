import logging

import torch

log = logging.getLogger(__name__)


def param_groups(model, weight_decay, no_decay):
    """AdamW groups: weight matrices decayed, biases and norm gains not."""
    decay = [p for n, p in model.named_parameters() if not n.endswith("bias")]
    skip = [p for n, p in model.named_parameters() if any(k in n for k in no_decay)]
    log.info("%d tensors decayed, %d not", len(decay), len(skip))
    return [{"params": decay, "weight_decay": weight_decay}, {"params": skip, "weight_decay": 0.0}]


def build_optimizer(model, lr, weight_decay, no_decay):
    return torch.optim.AdamW(param_groups(model, weight_decay, no_decay), lr=lr)


def build_scheduler(optimizer, epochs, steps_per_epoch):
    return torch.optim.lr_scheduler.OneCycleLR(optimizer, max_lr=optimizer.param_groups[0]["lr"],
                                               total_steps=epochs * steps_per_epoch)
