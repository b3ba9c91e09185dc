import torch

class A(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.other_object = B()
        self.fun = self.other_object.fun  # ugly but works in python

    @torch.jit.export
    def fun(self) -> int:
        return 1


class B(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.int = 2

    @torch.jit.export
    def fun(self) -> int:
        return self.int


model = torch.jit.script(A())
model.fun()
