import torch
import torch.nn.functional as F
from torch import nn

x = torch.randn(1, 32, 13)  # one streamed window: batch of 1
pooled = F.adaptive_avg_pool1d(x, 1).squeeze()  # squeeze() without a dim also drops the batch axis: (32,)
head = nn.Sequential(nn.Linear(32, 16), nn.BatchNorm1d(16)).eval()
head(pooled)
