# -*- coding: utf-8 -*-
from __future__ import absolute_import
import numpy as np
import torch
import torch.nn as nn
from torch.autograd import Variable


kernel = torch.from_numpy(np.random.random_sample((1, 3))).double()
input_ = torch.from_numpy(np.random.random_sample((1, 1, 1, 6))).double()

print(kernel)
print(input_)

model = nn.Sequential(nn.Conv2d(1, 1, (1, 3), stride=1, padding=0, bias=False))
model[0].weight.data.copy_(kernel)
A = Variable(input_)
out = model(A)
print(out.data)
