# Source: https://github.com/pytorch/pytorch/issues/127679 (reporter's script, issue description)
import torch
from typing import Dict


class MyModule(torch.nn.Module):
    meta: Dict[str, int]

    def __init__(self, meta):
        super(MyModule, self).__init__()
        # This type cannot be inferred and must be specified
        self.meta = meta

    def forward(self, x):
        return x


m = torch.jit.script(MyModule({"foo": 0}))

assert m.meta == {"foo": 0}

m.extra_attr = torch.jit.Attribute(0, int)
assert m.extra_attr == 0

m = torch.jit.freeze(m.eval(), preserved_attrs=["meta", "extra_attr"])
