import torch

@torch.compile
def f(x: torch.Tensor) -> torch.Tensor:
    return 2 * x

x = torch.tensor(2.0, requires_grad=True)
y = f(x)

def get_vjp(grad_output: torch.Tensor) -> torch.Tensor:
    grads = torch.autograd.grad(
        outputs=y,
        inputs=x,
        grad_outputs=grad_output,
    )
    return torch.concatenate([grad.unsqueeze(0) for grad in grads])

jacobian = torch.vmap(get_vjp)(torch.tensor([1.]))
print(jacobian)
