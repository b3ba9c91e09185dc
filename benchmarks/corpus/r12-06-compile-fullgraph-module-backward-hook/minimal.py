import torch

m = torch.nn.Linear(2, 2)
m.register_full_backward_hook(lambda *a: None)
torch.compile(m, fullgraph=True)(torch.ones(2))
