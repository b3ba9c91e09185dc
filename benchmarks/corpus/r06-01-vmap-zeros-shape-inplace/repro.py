import torch

def func(x, y):
    mat = torch.zeros(x.shape)  # Error occurs on this line
    # mat = torch.zeros_like(x)  # No error occurs on this line
    mat[0, 0] = mat[0, 1] + x[0, 0]
    return mat

input = torch.ones((10, 5, 6))
inputy = torch.ones((10, 5, 6))

batched_func = torch.vmap(func, in_dims=(0, 0))
batched_func(input, inputy)
