import torch
import torch.nn.functional as F
from torch import nn

flat = torch.randn(4, 8, dtype=torch.bfloat16)
weights = F.softmax(torch.randn(4, 2, dtype=torch.bfloat16).float(), dim=-1)
expert = nn.Linear(8, 8).to(torch.bfloat16)
token_idx = torch.arange(4)
out = torch.zeros_like(flat)
y = expert(flat[token_idx]) * weights[token_idx, 0, None]
out.index_add_(0, token_idx, y)
