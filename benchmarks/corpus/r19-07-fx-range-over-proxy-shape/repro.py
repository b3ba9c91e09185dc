import torch

class M(torch.nn.Module):
    def forward(self, x):
        n, c, h, w = x.shape
        for _c in range(c):
            x = x * 2
        return x
    
m = M()
gm = torch.fx.symbolic_trace(m)
print(gm)
