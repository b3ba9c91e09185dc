import torch
import torch.nn as nn

B, T, H, D = 1, 128, 8, 64        # GPT-2-small-like
E = H * D

class MHA(nn.Module):
    def __init__(self):
        super().__init__()
        self.q = nn.Linear(E, E, bias=False)
        self.k = nn.Linear(E, E, bias=False)
        self.v = nn.Linear(E, E, bias=False)

    def forward(self, x):
        b, t, _ = x.shape
        q = self.q(x).view(b, t, H, D).permute(0, 2, 1, 3)   # (B, H, T, D)
        k = self.k(x).view(b, t, H, D).permute(0, 2, 3, 1)   # (B, H, D, T) pre-transposed
        v = self.v(x).view(b, t, H, D).permute(0, 2, 1, 3)   # (B, H, T, D)
        w = (torch.matmul(q, k) * (D ** -0.5)).softmax(dim=-1)
        return (w @ v).permute(0, 2, 1, 3).reshape(b, t, E)

torch.manual_seed(0)
m = MHA().eval()
x = torch.randn(B, T, E)
with torch.no_grad():
    print("eager:", m(x).shape)
    print("compiled:", torch.compile(m)(x).shape)
