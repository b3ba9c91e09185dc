import torch
p = torch.Tensor([2.0])
b = torch.distributions.Bernoulli(p)
print(b.sample())
p = torch.Tensor([2.0])
b = torch.distributions.Bernoulli(p)
print(b.log_prob((torch.Tensor([0]))))
