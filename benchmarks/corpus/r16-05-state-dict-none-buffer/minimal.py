import torch


class MyModule(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.register_buffer("some_state", None)


m = MyModule()
m.some_state = torch.tensor(42)
MyModule().load_state_dict(m.state_dict())
