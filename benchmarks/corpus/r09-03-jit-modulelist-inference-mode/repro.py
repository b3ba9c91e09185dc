import torch

class MLP(torch.nn.Module):
    def __init__(self) -> None:
        super().__init__()

        # works with one module
        # self.layers = torch.nn.ModuleList([torch.nn.Linear(1, 1)])

        # fails with two modules
        self.layers = torch.nn.ModuleList(
            [torch.nn.Linear(1, 1), torch.nn.Linear(1, 1)]
        )

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        for layer in self.layers:
            x = layer.forward(x)
        return x

model = MLP()
model = torch.jit.script(model)

# training
optimizer = torch.optim.Adam(model.parameters())
optimizer.zero_grad()
model(torch.rand(100, 1)).mean().backward()
optimizer.step()
optimizer.zero_grad()

# testing
with torch.inference_mode():
    model(torch.rand(100, 1))
