import torch
import torch.nn as nn


class Block(nn.Module):
    def __init__(self):
        super().__init__()
        self.att = nn.Module()
        self.att.qkv = nn.Linear(2, 6, bias=False)
        self.att.proj = nn.Linear(2, 2)
        self.ff = nn.Module()
        self.ff.layers = nn.Sequential(nn.Linear(2, 8), nn.GELU(), nn.Linear(8, 2))
        self.norm1 = nn.LayerNorm(2)
        self.norm2 = nn.LayerNorm(2)


class GPTModel(nn.Module):
    def __init__(self):
        super().__init__()
        self.tok_emb = nn.Embedding(4, 2)
        self.pos_emb = nn.Embedding(4, 2)
        self.trf_blocks = nn.Sequential(Block())
        self.final_norm = nn.LayerNorm(2)
        self.out_head = nn.Linear(2, 4, bias=False)


model = torch.compile(GPTModel())
torch.save(model.state_dict(), "model.pth")
GPTModel().load_state_dict(torch.load("model.pth", weights_only=True))
