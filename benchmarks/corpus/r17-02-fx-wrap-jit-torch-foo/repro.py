import torch
import torch.fx

torch.fx.wrap('foo_wrapper')

def foo_wrapper(x):
    return torch.foo(x)


def to_trace(x):
    return foo_wrapper(x)

traced = torch.fx.symbolic_trace(to_trace)

scripted = torch.jit.script(traced)
