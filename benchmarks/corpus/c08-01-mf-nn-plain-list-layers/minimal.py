import torch
from torch import nn


class AmplificationMLP(nn.Module):
    def __init__(self, dims):
        super().__init__()
        layers = []
        for d_in, d_out in zip(dims[:-1], dims[1:]):
            layers.append(nn.Linear(d_in, d_out))
        self.layers = layers


model = AmplificationMLP([8, 32, 1])
torch.optim.AdamW(model.parameters(), lr=3e-3)
