import torch


class MyModule(torch.nn.Module):
    @torch.jit.export
    def sin(self, x):
        return x.sin()

module = MyModule()
torch.jit.script(module)
torch.jit.trace_module(module, {"sin": torch.ones(1)})
