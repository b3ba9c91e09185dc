import torch  # ADAPTED: the posted snippet omits the import


class Model(torch.nn.Module):

    def __init__(self):
        super().__init__()
        self.layers = torch.nn.ModuleList([
            torch.nn.Linear(32, 32),
            torch.nn.Linear(32, 32)
        ])

    def forward(self, x, n_layers: int):
        for i in range(n_layers):
            x = self.layers[i](x)
        return x

torch.jit.script(Model())
