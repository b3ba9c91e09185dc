import torch
import torch.nn.functional as F

table = torch.tensor([[0.5, 1.0], [1.5, 0.0]], dtype=torch.float32)
features, labels = table[:, :-1], table[:, -1]
F.cross_entropy(torch.randn(2, 2), labels)
