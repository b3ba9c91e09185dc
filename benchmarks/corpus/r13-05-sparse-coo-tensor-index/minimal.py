import torch
torch.eye(2).to_sparse()[torch.tensor([0])]
