import torch
import torch.nn.functional as F


def forward(x):
    torch.manual_seed(1234)  # reseeded inside the compiled function: Dynamo skips manual_seed
    return F.dropout(x, 0.2, training=True)


torch.compile(forward, backend="eager", fullgraph=True)(torch.randn(12, 6))
