import torch

@torch.library.custom_op("mylib::solve", mutates_args=())
def solve(x: torch.Tensor) -> torch.Tensor:
    return x * 2

@solve.register_fake
def solve_fake(x):
    return torch.empty_like(x)

def setup(ctx, inputs, output):
    ctx.save_for_backward(*inputs)

def backward(ctx, grad):
    return grad * 2

solve.register_autograd(backward, setup_context=setup)

# Works: eager forward + backward
x = torch.tensor([1.0, 2.0], requires_grad=True)
y = solve(x)
y.sum().backward()
print("eager backward:", x.grad)  # tensor([2., 2.])

# Fails: jacrev
x2 = torch.tensor([1.0, 2.0])
J = torch.func.jacrev(solve)(x2)
