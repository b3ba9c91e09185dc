import torch
x = torch.nested.nested_tensor([torch.randn(4, 100, 16),
	                                torch.randn(4, 150, 16)], layout=torch.jagged)
y = torch.nested.nested_tensor([torch.randn(4, 16, 100),
	                                torch.randn(4, 16, 150)], layout=torch.jagged)
v = torch.matmul(x, y)
