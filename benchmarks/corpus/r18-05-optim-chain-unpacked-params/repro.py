import itertools
import torch
from torch.autograd import Variable

net = torch.nn.Linear(1, 1)
W = Variable(torch.zeros(1, 1), requires_grad=True)

torch.optim.Adam(itertools.chain(*net.parameters(), W))

torch.optim.Adam([*net.parameters(), W])
