import torch
from torch import nn

state = nn.Linear(256, 32).state_dict()  # the exported checkpoint (real CPU tensors)
with torch.device("meta"):
    model = nn.Linear(256, 32)
model.load_state_dict(state)  # copy_ into a meta parameter is a no-op: the weights stay on meta
model(torch.zeros(3, 256))
