import torch
from torch.func import hessian

# Helper-reduced from the reporter's MWE (no smaller repro was posted in the thread).
f = torch.nn.Sequential(torch.nn.Linear(2, 2), torch.nn.Tanh())
torch.compile(hessian(hessian(f)))(torch.zeros(2))
