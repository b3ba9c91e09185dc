import torch
import torch.nn.functional as F
x = torch.randn(2000, 6, 4)
F.multi_head_attention_forward(x, x, x, 4, 1, torch.randn(12, 4), None, None, None, False, 0.0, torch.randn(4, 4), None, key_padding_mask=torch.zeros(2000, 6).bool())
