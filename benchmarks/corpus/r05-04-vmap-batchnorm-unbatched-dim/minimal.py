import torch
torch.vmap(torch.nn.BatchNorm2d(3, track_running_stats=False))(torch.randn(4, 3, 5, 5))
