import torch  # ADAPTED: the two code blocks omit the import; they are concatenated here as posted

 # Test 1:
 # Tensor.retain_grad inside function
 # on intermediate, and on output
 # See if the grad can be used :P

def f(x):
    y = x.clone()
    y.retain_grad()
    z = y.clone()
    z.retain_grad()
    return z, y

of = torch.compile(backend='aot_eager')(f)

x = torch.randn([], requires_grad=True)
z, y = of(x)
z.clone().backward()
# inspect z.grad, y.grad
# Bug: they do not exist. May lead to silent correctness problems

# If you register a hook on an intermediate, it won't work.
def f(x):
    y = x * x
    z = y * x * x * x * 1 * 1 * 1. * 1. * 1.
    print("graph_break")
    y.register_hook(lambda x: x if x is None else 3.14 * x)
    result, = torch.autograd.grad(z, x)
    return result

of = torch.compile(backend='aot_eager')(f)
x = torch.tensor(1., requires_grad=True)

expected = f(x)
result = of(x)
# assertion failed
assert torch.allclose(result, expected)
