import torch
torch.compile(torch.nn.LSTM(4, 4), fullgraph=True)(torch.rand(1, 1, 4))
