"""Frame-level speech tagger (speech / music / noise) with a small Conformer encoder."""
import torch
import torch.nn.functional as F
from torch import nn

CFG = dict(n_mels=40, dim=32, heads=4, layers=2, kernel=15, classes=3, dropout=0.1)


class FeedForward(nn.Module):
    def __init__(self, dim, dropout):
        super().__init__()
        self.net = nn.Sequential(nn.LayerNorm(dim), nn.Linear(dim, 4 * dim), nn.SiLU(), nn.Dropout(dropout),
                                 nn.Linear(4 * dim, dim))

    def forward(self, x):
        return x + 0.5 * self.net(x)


class ConvModule(nn.Module):
    """Pointwise conv + GLU, depthwise conv, BatchNorm, SiLU, pointwise conv (Conformer, sec. 2.2)."""

    def __init__(self, dim, kernel, dropout):
        super().__init__()
        self.norm = nn.LayerNorm(dim)
        self.pointwise_in = nn.Conv1d(dim, 2 * dim, 1)
        self.depthwise = nn.Conv1d(dim, dim, kernel, padding=kernel // 2, groups=dim)
        self.bn = nn.BatchNorm1d(dim)
        self.pointwise_out = nn.Conv1d(dim, dim, 1)
        self.drop = nn.Dropout(dropout)

    def forward(self, x):  # x: (batch, time, dim)
        y = self.norm(x)
        y = F.glu(self.pointwise_in(y), dim=1)
        y = self.pointwise_out(F.silu(self.bn(self.depthwise(y))))
        return x + self.drop(y)


class ConformerLayer(nn.Module):
    def __init__(self, dim, heads, kernel, dropout):
        super().__init__()
        self.ff1, self.ff2 = FeedForward(dim, dropout), FeedForward(dim, dropout)
        self.attn_norm = nn.LayerNorm(dim)
        self.attn = nn.MultiheadAttention(dim, heads, dropout=dropout, batch_first=True)
        self.conv = ConvModule(dim, kernel, dropout)
        self.out_norm = nn.LayerNorm(dim)

    def forward(self, x):
        x = self.ff1(x)
        h = self.attn_norm(x)
        x = x + self.attn(h, h, h, need_weights=False)[0]
        x = self.conv(x)
        return self.out_norm(self.ff2(x))


class FrameTagger(nn.Module):
    def __init__(self, cfg):
        super().__init__()
        self.proj = nn.Linear(cfg["n_mels"], cfg["dim"])
        self.layers = nn.ModuleList(ConformerLayer(cfg["dim"], cfg["heads"], cfg["kernel"], cfg["dropout"])
                                    for _ in range(cfg["layers"]))
        self.classify = nn.Linear(cfg["dim"], cfg["classes"])

    def forward(self, mels):  # mels: (batch, time, n_mels)
        x = self.proj(mels)
        for layer in self.layers:
            x = layer(x)
        return self.classify(x)


if __name__ == "__main__":
    torch.manual_seed(0)
    model = FrameTagger(CFG).eval()
    print(f"{sum(p.numel() for p in model.parameters())} parameters")
    mels = torch.randn(2, 50, CFG["n_mels"])  # two 0.5 s clips at 100 frames/s
    with torch.no_grad():
        labels = model(mels).argmax(-1)
    print({name: (labels == i).float().mean().item() for i, name in enumerate(["speech", "music", "noise"])})
