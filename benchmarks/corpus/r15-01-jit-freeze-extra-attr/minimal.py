import torch


class MyModule(torch.nn.Module):
    def forward(self, x):
        return x


m = torch.jit.script(MyModule())
m.extra_attr = torch.jit.Attribute(0, int)
torch.jit.freeze(m.eval(), preserved_attrs=["extra_attr"])
