import torch
import torch.nn.functional as F

ids = torch.tensor([[1, 5, 6, 0]])
mask = (ids != 0).long()[:, None, None, :]
q = k = v = torch.randn(1, 4, 4, 16)
p = 0.0
y = F.scaled_dot_product_attention(q, k, v, attn_mask=mask, dropout_p=p)
