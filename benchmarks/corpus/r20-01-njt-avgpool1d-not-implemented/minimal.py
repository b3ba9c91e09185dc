import torch
t = torch.nested.nested_tensor([torch.rand(1, 7)], layout=torch.jagged)
torch.nn.functional.avg_pool1d(t, 3, 2)
