"""Fine-tune a small transformer encoder in bfloat16 with LoRA adapters on its attention projections."""
import torch
import torch.nn.functional as F
from torch import nn


class LoRALinear(nn.Module):
    """A frozen linear layer plus a trainable low-rank update: W x + (B A x) * alpha / r."""

    def __init__(self, base, rank=4, alpha=8.0):
        super().__init__()
        self.base = base
        self.base.requires_grad_(False)
        self.down = nn.Linear(base.in_features, rank, bias=False)
        self.up = nn.Linear(rank, base.out_features, bias=False)
        nn.init.zeros_(self.up.weight)
        self.scale = alpha / rank

    def forward(self, x):
        return self.base(x) + self.up(self.down(x)) * self.scale


class Block(nn.Module):
    def __init__(self, dim, heads):
        super().__init__()
        self.heads = heads
        self.norm1, self.norm2 = nn.LayerNorm(dim), nn.LayerNorm(dim)
        self.qkv = nn.Linear(dim, 3 * dim)
        self.proj = nn.Linear(dim, dim)
        self.mlp = nn.Sequential(nn.Linear(dim, 4 * dim), nn.GELU(), nn.Linear(4 * dim, dim))

    def forward(self, x):
        b, t, d = x.shape
        q, k, v = self.qkv(self.norm1(x)).reshape(b, t, 3, self.heads, d // self.heads).permute(2, 0, 3, 1, 4)
        attn = F.scaled_dot_product_attention(q, k, v)
        x = x + self.proj(attn.transpose(1, 2).reshape(b, t, d))
        return x + self.mlp(self.norm2(x))


class Encoder(nn.Module):
    def __init__(self, vocab=100, dim=32, heads=4, depth=2, classes=3):
        super().__init__()
        self.embed = nn.Embedding(vocab, dim)
        self.blocks = nn.ModuleList(Block(dim, heads) for _ in range(depth))
        self.head = nn.Linear(dim, classes)

    def forward(self, tokens):
        x = self.embed(tokens)
        for block in self.blocks:
            x = block(x)
        return self.head(x.mean(dim=1))


def add_lora(model, rank):
    for block in model.blocks:
        block.qkv = LoRALinear(block.qkv, rank)
        block.proj = LoRALinear(block.proj, rank)
    return model


def main(rank=4, steps=5):
    torch.manual_seed(0)
    model = Encoder().to(torch.bfloat16)  # "pretrained" weights, loaded in bf16 to save memory
    model.requires_grad_(False)
    model = add_lora(model, rank)
    trainable = [p for p in model.parameters() if p.requires_grad]
    opt = torch.optim.AdamW(trainable, lr=1e-3)
    for step in range(steps):
        tokens = torch.randint(0, 100, (8, 16))
        labels = torch.randint(0, 3, (8,))
        loss = F.cross_entropy(model(tokens).float(), labels)
        opt.zero_grad()
        loss.backward()
        opt.step()
        print(f"step {step}: loss {loss.item():.3f}")


if __name__ == "__main__":
    main()
