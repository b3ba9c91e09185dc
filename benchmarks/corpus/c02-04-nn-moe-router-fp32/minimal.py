import torch
import torch.nn.functional as F
from torch import nn


def route(x, gate):
    probs = F.softmax(gate(x).float(), dim=-1)
    weights, experts = probs.topk(2, dim=-1)
    return weights / weights.sum(-1, keepdim=True), experts


flat = torch.randn(4, 8, dtype=torch.bfloat16)
weights, chosen = route(flat, nn.Linear(8, 4, bias=False).to(torch.bfloat16))
token_idx = torch.arange(4)
out = torch.zeros_like(flat)
y = nn.Linear(8, 8).to(torch.bfloat16)(flat) * weights[:, 0, None]
out.index_add_(0, token_idx, y)
