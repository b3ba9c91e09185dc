import torch
w = torch.nn.Parameter(torch.ones(1))
opt = torch.optim.LBFGS([w])
loss = (w * w).sum()
def closure():
    opt.zero_grad()
    loss.backward()
    return loss
opt.step(closure)
