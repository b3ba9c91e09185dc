import torch


def forward(item_feats):
    # the check's message is formatted eagerly, so repr() of the tensor is traced on every call
    message = f"item features must be (items, features), got {item_feats!r}"
    if item_feats.dim() != 2:
        raise ValueError(message)
    return item_feats.sum(1)


torch.compile(forward, backend="eager", fullgraph=True)(torch.randn(50, 12))
