import io, torch
from torch.nn.utils import parametrizations, parametrize
m = parametrize.remove_parametrizations(parametrizations.weight_norm(torch.nn.Linear(1, 1)), "weight")
torch.save(m, io.BytesIO())
