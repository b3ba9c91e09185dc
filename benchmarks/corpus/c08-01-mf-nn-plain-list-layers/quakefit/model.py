import torch.nn.functional as F
from torch import nn


class AmplificationMLP(nn.Module):
    """A plain MLP whose depth comes from the config: dims = [in, hidden..., out]."""

    def __init__(self, dims, dropout=0.1):
        super().__init__()
        layers = []
        for d_in, d_out in zip(dims[:-1], dims[1:]):
            layers.append(nn.Linear(d_in, d_out))
        self.layers = layers
        self.dropout = dropout

    def forward(self, x):
        for layer in self.layers[:-1]:
            x = F.dropout(F.gelu(layer(x)), self.dropout, self.training)
        return self.layers[-1](x)


def count_parameters(model):
    return sum(p.numel() for p in model.parameters() if p.requires_grad)
