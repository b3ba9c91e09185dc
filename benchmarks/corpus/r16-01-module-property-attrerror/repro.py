import torch.nn as nn

class ModelOptions:
    def __init__(self, idx, name):
        self.idx = idx
        self._name = name


MODEL_OPT = ModelOptions(1, "unet")

class SomeModel(nn.Module):
    def __init__(self):
        super(SomeModel, self).__init__()
        self.model1 = None
        self.model2 = None

    @property
    def inner_model(self):
        if MODEL_OPT.idx == 1:
            print("Using Model {}".format(MODEL_OPT.name))
            return self.model1

model = SomeModel()
print(model.inner_model)
