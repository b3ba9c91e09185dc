# Quoted from https://github.com/pytorch/pytorch/issues/197094
# ("[inductor] `torch.compile(optimizer.step)` fails for SGD with `foreach=True` on complex parameters", cuiliaomei-beep, 2026-09-15).
# Unchanged except these header comments; runs on CPU as posted.
import torch

p = torch.nn.Parameter(torch.complex(torch.randn(3, 2), torch.randn(3, 2)))
opt = torch.optim.SGD([p], lr=0.1, foreach=True)
p.grad = torch.ones_like(p)

opt.step()                                  # eager: fine
torch.compile(opt.step, backend="aot_eager")()   # fine
torch.compile(opt.step)()                   # Inductor:
