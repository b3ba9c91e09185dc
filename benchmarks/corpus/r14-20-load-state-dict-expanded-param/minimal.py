import torch
class Foo(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.bar = torch.nn.Parameter(torch.randn(3).expand(2, -1))
Foo().load_state_dict({"bar": torch.randn(2, 3)})
