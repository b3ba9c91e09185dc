import torch

@torch.library.custom_op("mylib::foo", mutates_args=())
def foo(x: torch.Tensor) -> torch.Tensor:
    return x.sin()

def setup_context(ctx, inputs, output):
    x, = inputs
    ctx.save_for_backward(x)

def backward(ctx, grad_output):
    x, = ctx.saved_tensors
    return ()

foo.register_autograd(backward, setup_context=setup_context)

x = torch.randn(3, requires_grad=True)
y = foo(x)
y.sum().backward()
