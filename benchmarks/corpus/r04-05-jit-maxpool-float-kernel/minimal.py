import torch
torch.jit.script(torch.nn.MaxPool2d(kernel_size=3.1))
