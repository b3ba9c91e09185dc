import torch
from torch import nn

model = nn.GRU(4, 8, batch_first=True)
hidden = torch.zeros(1, 2, 8)
for _ in range(2):
    inputs = torch.randn(2, 3, 4)
    logits, hidden = model(inputs, hidden)
    logits.sum().backward()
