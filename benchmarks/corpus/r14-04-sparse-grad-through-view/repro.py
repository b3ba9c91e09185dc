# Quoted from https://github.com/pytorch/pytorch/issues/105846
# ("Strance backward behaviour with sparse tensors", Dipet, 2023-07-24).
# Unchanged except these header comments; runs on CPU as posted.
import torch
from typing import Any, Tuple


class CheckFn(torch.autograd.Function):
    @staticmethod
    def forward(ctx: Any, *args: Any, **__: Any) -> torch.Tensor:
        x, w = args
        ctx.w = w
        return x

    @staticmethod
    def backward(ctx: Any, *args: Any) -> Tuple[None, torch.Tensor]:
        w = ctx.w
        shape = w.shape
        i = torch.tensor([0, 1]).reshape([1, -1])
        v = [[1, 2], [3, 4]]
        g = torch.sparse_coo_tensor(i, v, shape, check_invariants=False)._coalesced_(True)
        print(f"g: {g.shape}")
        return None, g


if __name__ == '__main__':
    x = torch.tensor([1, 2, 3, 4], dtype=torch.float).view([2, 2])
    w = torch.tensor([1, 1, 1, 1], dtype=torch.float, requires_grad=True).view([2, 2])

    print(f"w: {w.shape}")
    y = CheckFn.apply(x, w)
    y.sum().backward()
