import torch
import torch.nn.functional as F
from torch.autograd import grad
query = torch.rand(32, 8, 128, 64, dtype=torch.float32, device="cpu",requires_grad=True)
key = torch.rand(32, 8, 128, 64, dtype=torch.float32, device="cpu",requires_grad=True)
value = torch.rand(32, 8, 128, 64, dtype=torch.float32, device="cpu",requires_grad=True)
with torch.backends.cuda.sdp_kernel(enable_math=True):
    out = F.scaled_dot_product_attention(query, key, value)
g = grad(out, query, grad_outputs=torch.ones_like(out), create_graph=True)[0].reshape(32, -1)
g_norm = g.norm(p=2, dim=1) ** 2
gp = g_norm.mean()
gp.backward()
