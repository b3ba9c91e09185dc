import torch

embedding = torch.nn.Embedding(3, 5, max_norm=1.0)
W = torch.randn(7, 5, requires_grad=True)
a = embedding.weight @ W.t()
b = embedding(torch.tensor([1, 2]))
(a.sum() + b.sum()).backward()
