import torch
f = torch.compile(lambda x, it: (iter(it), x)[1], backend="eager", fullgraph=True)
f(torch.randn(3), (i for i in range(3)))
