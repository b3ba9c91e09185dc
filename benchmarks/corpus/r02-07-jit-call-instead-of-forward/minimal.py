import torch


class M(torch.nn.Module):
    def __call__(self, x):
        return x


torch.jit.script(M())(torch.zeros(1))
