import torch

# Helper-reduced (no code was posted in the thread), following bdhirsh's diagnosis there:
# the gradient of one output of a compiled region w.r.t. another output of the same region.
net = torch.nn.Sequential(torch.nn.Conv2d(3, 4, 1), torch.nn.Conv2d(4, 3, 1))

def model(x):
    z = net[0](x)
    return net[1](z), z

model = torch.compile(model)
dec, z = model(torch.randn(1, 3, 2, 2))
torch.autograd.grad(dec.sum(), z)
