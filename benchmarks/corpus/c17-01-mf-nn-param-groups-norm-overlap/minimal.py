import torch
from torch import nn


def param_groups(model, weight_decay, no_decay):
    decay = [p for n, p in model.named_parameters() if not n.endswith("bias")]
    skip = [p for n, p in model.named_parameters() if any(k in n for k in no_decay)]
    return [{"params": decay, "weight_decay": weight_decay}, {"params": skip, "weight_decay": 0.0}]


def build_optimizer(model, lr, weight_decay, no_decay):
    return torch.optim.AdamW(param_groups(model, weight_decay, no_decay), lr=lr)


model = nn.ModuleDict({"fc": nn.Linear(4, 4), "norm": nn.LayerNorm(4)})
build_optimizer(model, 1e-3, 0.05, ("bias", "norm"))
