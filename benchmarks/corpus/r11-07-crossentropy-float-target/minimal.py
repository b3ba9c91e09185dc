import torch
torch.nn.CrossEntropyLoss()(torch.tensor([7.2]), torch.tensor(1.5))
