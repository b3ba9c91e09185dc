import torch
from torch import nn


class SentenceEncoder(nn.Module):
    def __init__(self, emb_dim, hidden_size, bidirectional=True):
        super().__init__()
        self.rnn = nn.LSTM(emb_dim, hidden_size, batch_first=True, bidirectional=bidirectional)
        self.out_dim = hidden_size

    def forward(self, x):
        out, _ = self.rnn(x)
        return out


class ClassifierHead(nn.Module):
    def __init__(self, in_dim, n_classes):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(in_dim, 32), nn.ReLU(), nn.Linear(32, n_classes))

    def forward(self, x):
        return self.net(x)


encoder = SentenceEncoder(8, 64)
head = ClassifierHead(encoder.out_dim, 4)
head(encoder(torch.randn(8, 5, 8)).mean(dim=1))
