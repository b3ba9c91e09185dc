import torch
from functorch import vmap


def exp_reducer(x):
    return x.exp().sum(dim=1)


inputs = torch.rand(10, 4, 4)
v = torch.ones(4)

vmaped_vjp = vmap(
    torch.autograd.functional.vjp,
    in_dims=(None, 0, None),
    out_dims=(0)
)

manual_vjp = []
for batch in inputs:
    manual_vjp.append(torch.autograd.functional.vjp(exp_reducer, batch, v)[1])
assert (
        vmaped_vjp(exp_reducer, inputs, v)[1] == torch.stack(manual_vjp, dim=0)
).all()
