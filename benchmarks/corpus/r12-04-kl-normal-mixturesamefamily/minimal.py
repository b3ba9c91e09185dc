import torch

d = torch.distributions
m = d.MixtureSameFamily(d.Categorical(torch.ones(5)), d.Normal(torch.zeros(5), torch.ones(5)))
d.kl_divergence(d.Normal(0.0, 1.0), m)
