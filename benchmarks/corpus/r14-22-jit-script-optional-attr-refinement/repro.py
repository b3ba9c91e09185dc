# Quoted from https://github.com/pytorch/pytorch/issues/143258
# ("Proper support for optionals in TorchScript", bluenote10, 2024-12-14).
# Unchanged except these header comments; runs on CPU as posted.
import torch

class MyScriptModule(torch.nn.Module):
    bias: torch.Tensor | None

    def __init__(self, use_bias: bool = True):
        super().__init__()
        if use_bias:
            self.bias = torch.nn.Parameter(torch.tensor(1.0))
        else:
            self.bias = None

    def forward(self, input):
        if self.bias is not None:
            return input + self.bias
        else:
            return input

my_script_module = torch.jit.script(MyScriptModule())
