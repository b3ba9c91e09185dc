import torch


class ZeroBackward(torch.autograd.Function):
    @staticmethod
    def forward(x):
        return x * 2

    @staticmethod
    def setup_context(ctx, inputs, output):
        pass

    @staticmethod
    def backward(ctx, grad):
        return grad * 0


def f(x):
    return ZeroBackward.apply(x).sum()


x = torch.ones(2)
eager = torch.func.grad(f)(x)
compiled = torch.compile(torch.func.grad(f), backend="eager")(x)
assert torch.equal(eager, compiled), "compiled torch.func.grad ignored the custom backward"
