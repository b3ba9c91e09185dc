import torch
from torch import nn


class RotaryEmbedding(nn.Module):
    def __init__(self):
        super().__init__()
        inv_freq = 1.0 / 10000 ** (torch.arange(0, 16, 2, dtype=torch.float32) / 16)
        self.register_buffer("inv_freq", inv_freq, persistent=False)


state = RotaryEmbedding().state_dict()
with torch.device("meta"):
    model = RotaryEmbedding()
model.load_state_dict(state, assign=True)
model.to("cpu")
