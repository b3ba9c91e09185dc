import torch
import warnings
def f(x):
    warnings.simplefilter('ignore')
    return x + 1
torch.compile(f, backend="eager", fullgraph=True)(torch.randn(2))
