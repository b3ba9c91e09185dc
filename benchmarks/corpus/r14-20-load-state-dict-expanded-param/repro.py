# Quoted from https://github.com/pytorch/pytorch/issues/28318
# ("`torch.nn.Module._load_state_dict` catch-all error message can be misleading", samuelstanton, 2019-10-18).
# Unchanged except these header comments; runs on CPU as posted.
import torch


class Foo(torch.nn.Module):
    def __init__(self):
        super().__init__()
        # initialize with placeholder data
        data = torch.randn(3).expand(2, -1)
        self.register_parameter("bar", torch.nn.Parameter(data))


# make a model checkpoint
foo = Foo()
foo.bar = torch.nn.Parameter(torch.randn(2, 3))
state_dict = foo.state_dict()

# attempt to load the checkpoint
new_foo = Foo()
new_foo.load_state_dict(state_dict)
