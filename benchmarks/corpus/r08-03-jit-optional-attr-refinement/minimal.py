from typing import Optional

import torch


class Foo(torch.nn.Module):
    attr: Optional[torch.Tensor]

    def __init__(self):
        super().__init__()
        self.attr = None

    def forward(self, x):
        if self.attr is not None:
            return x + self.attr
        return x


torch.jit.script(Foo())
