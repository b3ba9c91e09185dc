import torch
torch.distributions.Multinomial(probs=torch.ones(4)).log_prob(torch.tensor([21., 24., 30., 25.]))
