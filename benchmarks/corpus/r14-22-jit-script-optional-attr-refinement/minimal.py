import torch
class M(torch.nn.Module):
    bias: torch.Tensor | None
    def __init__(self):
        super().__init__()
        self.bias = torch.ones(1)
    def forward(self, x):
        if self.bias is not None:
            return x + self.bias
        return x
torch.jit.script(M())
