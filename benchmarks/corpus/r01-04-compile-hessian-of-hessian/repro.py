"""MWE: Compiling nested Hessians fails."""

import torch.nn as nn
from torch import compile, zeros
from torch.func import hessian

# Create a small MLP and an unbatched input
f = nn.Sequential(nn.Linear(16, 16), nn.Tanh(), nn.Linear(16, 8))
x = zeros(16)

# Works: Compute the Hessian
hess = hessian(f)
print("f: ", x.shape, " -> ", f(x).shape)
print("Hessian: ", x.shape, " -> ", hess(x).shape)

# Works: Compute the Hessian of the Hessian
print("Hessian(Hessian):")
hess_hess = hessian(hess)
print(f"\tUncompiled: ", x.shape, " -> ", hess_hess(x).shape)

# Fails: Compile the function that computes the Hessian of the Hessian
hess_hess = compile(hess_hess)
print(f"\tCompiled: ", x.shape, " -> ", hess_hess(x).shape)
