import torch

x = torch.ones(1, 1, requires_grad=True)
D = torch.nn.Linear(1, 1)
opt = torch.optim.Adam(D.parameters())
loss = D(x).sum()
loss.backward(retain_graph=True)
opt.step()
loss.backward()
