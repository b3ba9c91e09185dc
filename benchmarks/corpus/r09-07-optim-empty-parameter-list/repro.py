import torch

class Model(torch.nn.Module):
    pass

model = Model()
optim = torch.optim.Adam(model.parameters())
