# Source: https://github.com/pytorch/pytorch/issues/88735 (reporter's script, issue description)
import torch


class MyModule(torch.nn.Module):
    @torch.jit.export
    def sin(self, x):
        return torch.ops.aten.sin(x)

module = MyModule()
example_input = torch.ones(2, 3)
torch.jit.script(module)
torch.jit.trace_module(module, {"sin": example_input})
