import torch

class Model(torch.jit.ScriptModule):
    def __init__(self, ):
        super(Model, self).__init__()
        self.layers = torch.nn.ModuleList([torch.nn.Linear(2, 2)])

    @torch.jit.script_method
    def forward(self, input, index):
        return self.layers[index](input)

model = Model()
model(torch.randn(2, 2))
