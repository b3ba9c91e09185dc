import torch
import torch.nn as nn

layer = nn.Linear(3, 3, bias=False)
layer.weight = nn.Parameter(torch.eye(3, dtype=torch.float))

def hook(module, grad_output):
    return tuple(go * 2 for go in grad_output)

@torch.compile(backend="aot_eager", fullgraph=True)
def f(x):
    y = layer(x)
    return y

x = torch.randn(3, requires_grad=True)
f(x)
layer.register_full_backward_pre_hook(hook)

x = torch.randn(3, requires_grad=True)
y = f(x)
y.sum().backward()
print(x.grad)

# adaptation (the reporter's expectation, as a check): eager gives 2s, the compiled function 1s
assert torch.equal(x.grad, torch.full((3,), 2.0)), "backward pre-hook registered after compiling was ignored"
