import torch
import torch.nn as nn
class MyModule(torch.nn.Module):
    def __init__(self):
        super(MyModule, self).__init__()
        self.act = nn.ReLU(inplace=False)  

    def forward(self, input):
        xx = 0
        i = -1
        if i > 0:
            xx = torch.ones(2,3)
            xx = self.act(xx)
        return xx

model = MyModule()
torch.jit.script(model).save('test.pt')
