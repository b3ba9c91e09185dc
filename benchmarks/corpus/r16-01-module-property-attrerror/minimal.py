import torch.nn as nn


class Opts:
    pass


class SomeModel(nn.Module):
    @property
    def inner_model(self):
        return Opts().name


SomeModel().inner_model
