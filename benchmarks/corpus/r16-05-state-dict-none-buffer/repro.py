import torch.nn as nn
import torch


class MyModule(nn.Module):
    def __init__(self):
        super().__init__()

        self.register_buffer("some_state", None)


module_original = MyModule()
module_original.some_state = torch.tensor(42)

module_copy = MyModule()
module_copy.load_state_dict(module_original.state_dict())
