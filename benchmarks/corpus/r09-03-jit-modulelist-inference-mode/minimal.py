import torch
m = torch.jit.script(torch.nn.Sequential(torch.nn.Linear(1, 1), torch.nn.Linear(1, 1)))
m(torch.rand(1, 1))
with torch.inference_mode():
    m(torch.rand(1, 1))
