import torch


class Example(torch.nn.Module):
    def __call__(self, input):
        return torch.nn.functional.relu(input)


# Runs through jit.script() fine:
module = torch.jit.script(Example())

# But throws an error when used:
module(torch.zeros(8))
