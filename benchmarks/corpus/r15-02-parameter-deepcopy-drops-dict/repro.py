# Source: https://github.com/pytorch/pytorch/issues/117275 (reporter's script, issue description)
from copy import deepcopy
import torch
from torch.nn import Parameter

x = torch.randn(4, 4)
p = Parameter(x)

x.foo = "bar"
p.baz = "qux"

xc = deepcopy(x)
pc = deepcopy(p)


print(xc.foo)  # succeeds
print(pc.baz)  # fails
