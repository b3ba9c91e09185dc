import torch
class MyModule(torch.nn.Module):
    def __init__(self, a):
        super().__init__()
        self.a = a

    def forward(self, x):
        if torch.equal(self.a, x):
            return x * x
        else:
            return x

module = MyModule(torch.tensor([1]))
input = torch.tensor([1])
test = module(input)
graph, _ = torch._dynamo.export(module)(input)
