import torch

@torch.compile(backend="eager", fullgraph=True)
def f(x, it):
    iter(it)
    return x.sin()

def get_gen(i):
    for i in range(10):
        yield i

x = torch.randn(3)
gen = get_gen(10)
f(x, gen)
