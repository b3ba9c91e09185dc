import torch
torch.distributions.Categorical(logits=torch.randn(0, 2))
