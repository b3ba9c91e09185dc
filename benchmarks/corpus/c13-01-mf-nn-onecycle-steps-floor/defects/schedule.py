import torch


def make_optimizer(model, cfg, n_train):
    """AdamW with a one-cycle schedule, stepped once per batch."""
    decay = [p for n, p in model.named_parameters() if p.ndim > 1]
    no_decay = [p for n, p in model.named_parameters() if p.ndim <= 1]
    opt = torch.optim.AdamW([{"params": decay, "weight_decay": cfg.weight_decay},
                             {"params": no_decay, "weight_decay": 0.0}], lr=cfg.max_lr)
    steps_per_epoch = n_train // cfg.batch_size
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=cfg.max_lr, epochs=cfg.epochs,
                                                steps_per_epoch=steps_per_epoch, pct_start=cfg.pct_start)
    return opt, sched
