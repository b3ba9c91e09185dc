import torch
import torch.distributions as distrib
q1 = distrib.TransformedDistribution(distrib.Normal(0.0, 1.0), distrib.transforms.ExpTransform())
q1.log_prob(torch.tensor(-1.0))
