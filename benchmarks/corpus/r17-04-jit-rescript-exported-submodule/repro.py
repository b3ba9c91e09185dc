import torch


class Inner(torch.nn.Module):
    def forward(self):
        return torch.ones(1)


class Outer(torch.nn.Module):
    def __init__(self, inner: Inner):
        super(Outer, self).__init__()
        self.inner = inner

    def forward(self):
        return self.inner.forward()

    @torch.jit.export
    def get_inner(self):
        return self.inner


inner_jit = torch.jit.script(Inner())

outer1 = Outer(inner_jit)
outer1_jit = torch.jit.script(outer1)

print(f"{type(outer1_jit.inner)=}")
print(f"{type(outer1_jit.get_inner())=}")

outer2 = Outer(outer1_jit.inner)
outer2_jit = torch.jit.script(outer2)

outer3 = Outer(outer1_jit.get_inner())
outer3_jit = torch.jit.script(outer3)
