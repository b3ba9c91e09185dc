import torch
def f(x):
    # Just to make sure there isn't a limit or something
    y = x * x * x * x * x * 1 * 1 * 1. * 1. * 1.
    print("graph_break")
    gx, = torch.autograd.grad(y, x, create_graph=True)
    ggx, = torch.autograd.grad(gx, x)
    return gx, ggx

x = torch.tensor(1., requires_grad=True)
of = torch.compile(backend='aot_eager')(f)

gx, ggx = f(x)
ogx, oggx = of(x)
assert torch.allclose(gx, ogx)
# BUG: second-order gradients are completely bogus. assertion failed
assert torch.allclose(ggx, oggx)
