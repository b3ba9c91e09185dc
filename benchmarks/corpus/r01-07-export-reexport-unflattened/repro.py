import torch

class AdapterBase(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.adapter = torch.nn.Linear(2, 2)
        self.act = torch.nn.ReLU()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.act(self.adapter(x))


class Main(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.base = AdapterBase()

    def forward(self, x: torch.Tensor):
        return self.base(x)


def test():
    model = Main().eval()

    x = torch.rand(2, 2)
    program = torch.export.export(
        model,
        args=(x,),
        dynamic_shapes=({0: torch.export.Dim.DYNAMIC(min=1, max=1024)},),
    )
    unflattened_module = torch.export.unflatten(program)

    program = torch.export.export(
        unflattened_module,
        args=(x,),
        dynamic_shapes=({0: torch.export.Dim.DYNAMIC(min=1, max=1024)},),
    )

if __name__ == "__main__":
    test()
