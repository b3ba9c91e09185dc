import torch
mod = torch.nn.Linear(4, 4)
x = torch.randn(2, 4)

def fn(x):
    res = mod(x)
    loss = res.sum()
    params = tuple(mod.parameters())
    grads = torch.autograd.grad(loss, params)
    return loss.detach(), grads[0], grads[1]

compiled_fn = torch.compile(fn, backend="aot_eager", fullgraph=True)
eager_result = fn(x)
compiled_result = compiled_fn(x)
