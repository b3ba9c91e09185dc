import torch
class B(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.int = 2
    @torch.jit.export
    def fun(self) -> int:
        return self.int
class A(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.fun = B().fun
torch.jit.script(A())
