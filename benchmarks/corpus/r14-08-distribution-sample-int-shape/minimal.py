import torch
torch.distributions.Normal(0., 1.).sample(1)
