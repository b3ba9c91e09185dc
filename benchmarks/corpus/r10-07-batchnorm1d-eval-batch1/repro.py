import torch

x = torch.rand((1, 120))
bn = torch.nn.BatchNorm1d(120,
                          track_running_stats=False) # if set to True, no problem, if set to False it will raise the Error
bn.eval() # Yes, setting eval()
x_normed = bn(x) # this will raise the error if track_running_stats is set to False
