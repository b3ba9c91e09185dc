import torch
def f(x, t):
    return torch.nn.functional.ctc_loss(x, t, [1], [1])
torch.jit.script(f)
