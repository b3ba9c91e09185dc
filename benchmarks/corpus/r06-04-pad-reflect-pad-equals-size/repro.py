import torch, torch.nn.functional as F

F.pad(torch.rand(2, 1, 256), (256, 0), mode = 'reflect')
#  Argument #4: Padding size should be less than the corresponding input dimension, but got: padding (256, 0) at dimension 2 of input [2, 1, 256]

F.pad(torch.rand(2, 1, 256), (258, 0), mode = 'zeros')
