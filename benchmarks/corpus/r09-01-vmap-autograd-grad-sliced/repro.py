import torch
import torch.nn as nn
from torch.func import functional_call, vmap, stack_module_state


def compute_loss(params, buffers, inputs, outputs):
    preds = functional_call(models[0], (params, buffers), inputs)
    return loss_fn(preds, outputs)


def compute_grad(loss, param):
    return torch.autograd.grad(loss, param, create_graph=True)


models = [nn.Linear(2, 1) for _ in range(5)]
params, buffers = stack_module_state(models)
inputs = torch.randn(5, 2, 2)
outputs = torch.randn(5, 2, 1)
loss_fn = nn.MSELoss()

losses = vmap(compute_loss)(params, buffers, inputs, outputs)

print('Gradients w/ slicing:')
for loss, weight in zip(losses, params['weight']):
    print(torch.autograd.grad(loss, weight, create_graph=True, allow_unused=True))

print('Gradients w/o slicing:')
for loss in losses:
    print(torch.autograd.grad(loss, params['weight'], create_graph=True, allow_unused=True))

print('Gradients w/ vmap:')
print(vmap(compute_grad)(losses, params['weight']))
