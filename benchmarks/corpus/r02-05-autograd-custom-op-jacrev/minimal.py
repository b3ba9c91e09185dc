import torch

@torch.library.custom_op("mylib::twice", mutates_args=())
def twice(x: torch.Tensor) -> torch.Tensor:
    return x * 2

twice.register_autograd(lambda ctx, g: g * 2)
torch.func.jacrev(twice)(torch.ones(2))
