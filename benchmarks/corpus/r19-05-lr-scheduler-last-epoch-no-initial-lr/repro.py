import torch
from torch.optim import SGD
from torch.optim.lr_scheduler import MultiplicativeLR

def lr_lambda(epoch):
    return 0.95 ** epoch

model = torch.nn.Linear(10, 2)
optimizer = SGD(model.parameters(), lr=0.1)

scheduler = MultiplicativeLR(optimizer, lr_lambda=lr_lambda, last_epoch=1)
