import torch

rnn = torch.nn.RNN(1, 1)
h = None
for _ in range(2):
    out, h = rnn(torch.ones(1, 1, 1), h)
    out.sum().backward()
