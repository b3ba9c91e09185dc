import torch
from torch import nn


def main():
    torch.manual_seed(0)
    model = nn.Sequential(nn.Linear(12, 16), nn.GELU(), nn.LayerNorm(16), nn.Linear(16, 5)).eval()
    compiled = torch.compile(model, backend="eager")
    x = torch.randn(6, 12, generator=torch.Generator().manual_seed(1))
    with torch.no_grad():
        compiled(x)
        model[3].register_forward_hook(lambda module, inputs, output: output.index_fill(1, torch.tensor([3]), -1e4))
        served = compiled(x)
        reference = model(x)
    torch.testing.assert_close(served, reference)


main()
