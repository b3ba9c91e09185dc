import torch
from torch.func import vmap, jacrev
t_data = torch.randn(3, 2)
f = lambda t: torch.nn.functional.normalize(t)
J = vmap(jacrev(f))
J_t = J(t_data)
