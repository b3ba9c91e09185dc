import torch
class MyModule(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.mods = torch.nn.ModuleList([
            torch.nn.Identity(),
            torch.nn.Identity(),
        ])
        
    def forward(self, arg):
        for good_mod in self.mods[:-1]:
            arg = good_mod(arg)
        return arg
    
m = MyModule()
print(m(0))
torch.jit.script(m)
