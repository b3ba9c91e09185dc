import torch
from torch import nn


class MatrixFactorization(nn.Module):
    def __init__(self, n_users, n_movies, dim):
        super().__init__()
        self.user = nn.Embedding(n_users, dim)
        self.movie = nn.Embedding(n_movies, dim)
        self.user_bias = nn.Embedding(n_users, 1)
        self.movie_bias = nn.Embedding(n_movies, 1)
        self.mean = nn.Parameter(torch.tensor(3.5))

    def forward(self, u, m):
        dot = (self.user(u) * self.movie(m)).sum(-1)
        return self.mean + dot + self.user_bias(u).squeeze(-1) + self.movie_bias(m).squeeze(-1)
