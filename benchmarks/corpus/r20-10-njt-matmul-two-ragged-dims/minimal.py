import torch
x = torch.nested.nested_tensor([torch.randn(4, 1, 16), torch.randn(4, 2, 16)], layout=torch.jagged)
y = torch.nested.nested_tensor([torch.randn(4, 16, 1), torch.randn(4, 16, 2)], layout=torch.jagged)
torch.matmul(x, y)
