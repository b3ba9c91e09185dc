import torch

# Setup
N = 5
f = lambda x: x ** 2
f = torch.compile(f)  # COMPLETED: the issue says "If we instead use a compiled version of `f`, it does not work anymore."
x = torch.randn(N, requires_grad=True)
y = f(x)
I_N = torch.eye(N)

# Sequential approach
jacobian_rows = [torch.autograd.grad(y, x, v, retain_graph=True)[0]
                 for v in I_N.unbind()]
jacobian = torch.stack(jacobian_rows)

# vectorized gradient computation
def get_vjp(v):
    return torch.autograd.grad(y, x, v)

jacobian = torch.vmap(get_vjp)(I_N)
