import torch
from torch import nn

stoi = {w: i for i, w in enumerate(["a", "b"], start=1)}
stoi["<pad>"] = 0
nn.EmbeddingBag(len(stoi) - 1, 4, padding_idx=0)(torch.tensor([[stoi["b"]]]))
