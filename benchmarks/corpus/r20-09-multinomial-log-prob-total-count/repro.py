import torch
from torch.distributions import Multinomial
m = Multinomial(100, torch.tensor([ 1., 1., 1., 1.]))
x = m.sample()  # equal probability of 0, 1, 2, 3

Multinomial(probs=torch.tensor([1., 1., 1., 1.])).log_prob(x)
