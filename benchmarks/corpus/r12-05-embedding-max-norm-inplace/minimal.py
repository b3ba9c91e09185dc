import torch

embedding = torch.nn.Embedding(3, 5, max_norm=True)
W = torch.randn((7, 5), requires_grad=True)
idx = torch.tensor([1, 2])
a = embedding.weight @ W.t()
embedding(idx)
a.sum().backward()
