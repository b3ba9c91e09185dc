import torch


def fn(x, mask):
    return torch.masked.median(x, dim=0, mask=mask)


compiled = torch.compile(fn, backend="eager", fullgraph=True)
compiled(torch.tensor([1, 9, 3]), torch.tensor([True, False, True]))
