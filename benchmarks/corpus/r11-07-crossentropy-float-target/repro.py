import torch
from torch import nn

tensor1 = torch.tensor([7.2]) # Here
tensor2 = torch.tensor(1.5) # Here

cel = nn.CrossEntropyLoss()
cel(input=tensor1, target=tensor2) # Error
