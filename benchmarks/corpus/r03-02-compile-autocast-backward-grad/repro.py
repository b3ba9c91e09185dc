import torch
import torch.nn as nn

w = nn.Linear(64, 64, device="cpu")
h = torch.randn(4, 64, device="cpu", dtype=torch.bfloat16, requires_grad=True)

def inner_fn(x):
    with torch.amp.autocast("cpu", enabled=False):
        return x.float() @ w.weight.float().T

def outer_fn(x, compile=False):
    if compile:
        return torch.compile(inner_fn, backend="aot_eager")(x)
    return inner_fn(x)

with torch.amp.autocast("cpu", dtype=torch.bfloat16):
    out_eager = outer_fn(h)
with torch.amp.autocast("cpu", dtype=torch.bfloat16):
    out_compiled = outer_fn(h, compile=True)

out_eager.sum().backward()
grad_eager = w.weight.grad.clone()

w.weight.grad = None
out_compiled.sum().backward()
grad_compiled = w.weight.grad.clone()

assert torch.equal(grad_eager, grad_compiled)  # fails
