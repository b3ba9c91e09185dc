import torch
layer = torch.nn.Linear(3, 3, bias=False)
f = torch.compile(lambda x: layer(x), backend="eager")
f(torch.randn(3, requires_grad=True))
layer.register_full_backward_pre_hook(lambda m, g: (g[0] * 2,))
x = torch.randn(3, requires_grad=True)
f(x).sum().backward()
assert torch.equal(x.grad, 2 * layer.weight.sum(0).detach()), "backward pre-hook registered after compiling was ignored"
