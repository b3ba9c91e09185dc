import torch
w = torch.randn(64, 64, requires_grad=True)
def f(x):
    with torch.autocast("cpu", enabled=False):
        return x.float() @ w.T
x = torch.randn(4, 64, dtype=torch.bfloat16)
with torch.autocast("cpu", dtype=torch.bfloat16):
    a, b = f(x), torch.compile(f, backend="aot_eager")(x)
assert torch.equal(torch.autograd.grad(a.sum(), w)[0], torch.autograd.grad(b.sum(), w)[0])
