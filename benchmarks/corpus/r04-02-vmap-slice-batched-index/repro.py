import torch

# the issue shows no definitions of `a` and `c`: added by the helper (a batch of 4 rows, one start index per row)
a = torch.randn(4, 10)
c = torch.tensor([0, 3, 5, 7])


def foo(a, ind, len):
    ind2 = ind + len
    return a[ind:ind2]

torch.vmap(foo, in_dims=(0, 0, None))(a, c, 2)
