import torch


def gate(residual, trace):
    level = trace.std(dim=-1, keepdim=True)
    if level.mean() < 0.05:
        return residual * 0.1
    return residual


torch.compile(gate, backend="eager", fullgraph=True)(torch.randn(2, 1, 8), torch.randn(2, 1, 8))
