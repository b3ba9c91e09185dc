import torch
from typing import Optional

class Foo(torch.nn.Module):
    __annotations__ = {
        'attr' : Optional[torch.Tensor]
    }

    def __init__(self, attr):
        super(Foo, self).__init__()
        self.attr = attr

    def forward(self, x):
        if self.attr is not None:
            return x + self.attr
        else:
            return x

f = Foo(None)
scripted = torch.jit.script(f)
