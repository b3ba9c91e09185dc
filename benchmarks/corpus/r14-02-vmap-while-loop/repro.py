# Quoted from https://github.com/pytorch/pytorch/issues/175522
# ("while_loop vmap compatibility", vmoens, 2026-02-23).
# Unchanged except these header comments and one added line, `import torch`
# (the snippet in the issue uses torch without importing it). Runs on CPU as posted.
# On torch 2.13.0 the failure is no longer the KeyError(TransformType.Vmap) the
# report mentions but InternalTorchDynamoError: NotImplementedError: Cannot access
# storage of BatchedTensorImpl (while_loop traced under vmap).
import torch
def fn(x):
    return torch.while_loop(lambda x: x.sum() < 10, lambda x: (x + 1,), (x,))

torch.vmap(fn)(torch.randn(4, 3))  # KeyError
