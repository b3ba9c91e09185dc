import torch
att = torch.nn.MultiheadAttention(3, 3, batch_first=True)
x = torch.randn(1, 5, 3)
y, w = att(x, x, x, attn_mask=torch.tensor([False, False, True]).view(-1, 1, 1).expand(-1, 5, 5), need_weights=True)
assert not torch.isnan(y).any(), "MultiheadAttention output is NaN with need_weights=True"
