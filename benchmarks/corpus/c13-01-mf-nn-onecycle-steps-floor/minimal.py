import torch


class DefectConfig:
    epochs = 3
    batch_size = 16


cfg, n_train = DefectConfig(), 72
opt = torch.optim.SGD([torch.zeros(1, requires_grad=True)], lr=0.1)
steps_per_epoch = n_train // cfg.batch_size
sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=0.1, epochs=cfg.epochs, steps_per_epoch=steps_per_epoch)
for epoch in range(cfg.epochs):
    for start in range(0, n_train, cfg.batch_size):
        opt.step()
        sched.step()
