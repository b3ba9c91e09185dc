import torch
import torch.fx

torch.fx.wrap('foo_wrapper')

def foo_wrapper(x):
    return torch.foo(x)

def f(x):
    return foo_wrapper(x)

torch.jit.script(torch.fx.symbolic_trace(f))
