import torch
torch.distributions.Bernoulli(torch.tensor([2.0]))
