import torch


class SinWithZeroBackward(torch.autograd.Function):
    @staticmethod
    def forward(x):
        return torch.sin(x)

    @staticmethod
    def setup_context(ctx, inputs, output):
        ctx.save_for_backward(*inputs)

    @staticmethod
    def backward(ctx, grad):
        return torch.zeros_like(grad)


def loss(x):
    return SinWithZeroBackward.apply(x).sum()


x = torch.randn(4)

eager = torch.func.grad(loss)(x)
compiled = torch.compile(torch.func.grad(loss), fullgraph=True)(x)
print(eager)  # zeros: custom backward respected
print(compiled)  # cos(x): custom backward dropped
assert torch.equal(eager, compiled), "compiled torch.func.grad ignored the custom backward"
