import torch

class Submodule(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.mods = torch.nn.ModuleList([torch.nn.Linear(3, 4)])

    def forward(self, x):
        for module in self.mods:
            x = module(x)

        return x

class MyModule(torch.nn.Module):
    def __init__(self, a):
        super().__init__()
        self.submod = a

    def forward(self, x):
        stack: List[Submodule] = [self.submod]

        while len(stack) > 0:
            cur_module: Submodule = stack[-1]
            stack.pop()
            for module in cur_module.mods:
                x = module(x)

        return x


if __name__ == "__main__":
    s = torch.jit.script(MyModule(Submodule()))
    print(s.graph)
    print(s(torch.randn(4, 3)))
