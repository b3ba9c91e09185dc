# Quoted from https://github.com/pytorch/pytorch/issues/44049
# ("[FX] Can't symbolically trace callsites to ScriptFunction", jamesr66a, 2020-09-02).
# Unchanged except these header comments; runs on CPU as posted.
import torch


@torch.jit.script
def funny_func(x):
    for _ in range(x.size(0)):
        x += 1.0
    return x

class Foo(torch.nn.Module):
    def forward(self, x):
        return funny_func(x)


f = Foo()
ts_traced = torch.jit.trace(f, (torch.rand(3, 4),))

x_test = torch.rand(5, 6)
torch.testing.assert_allclose(f(x_test), ts_traced(x_test))

import torch.fx
# RuntimeError: funny_func() Expected a value of type 'Tensor (inferred)' for argument 'x' but instead found type 'Proxy'.
sym_traced = torch.fx.symbolic_trace(f)
