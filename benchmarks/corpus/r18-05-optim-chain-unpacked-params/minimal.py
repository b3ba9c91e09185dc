import itertools
import torch

net = torch.nn.Linear(1, 1)
torch.optim.Adam(itertools.chain(*net.parameters()))
