import torch
import torch.masked as masked

def fn(input, mask):
    return masked.median(input, dim=0, mask=mask)

input = torch.tensor([1, 9, 3])
mask = torch.tensor([True, False, True])

print("eager:", fn(input, mask))
compiled = torch.compile(fn, backend="inductor", fullgraph=True)
print("compiled:", compiled(input, mask))
