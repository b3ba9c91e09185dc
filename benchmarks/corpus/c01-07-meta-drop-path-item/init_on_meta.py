"""Instantiate a hierarchical vision backbone on the meta device to count parameters and plan sharding
without allocating memory (as large-model loaders do)."""
import torch
from torch import nn


class DropPath(nn.Module):
    def __init__(self, p=0.0):
        super().__init__()
        self.p = p

    def forward(self, x):
        if not self.training or self.p == 0.0:
            return x
        keep = torch.rand(x.shape[0], 1, 1, device=x.device) >= self.p
        return x * keep / (1 - self.p)


class Mlp(nn.Module):
    def __init__(self, dim, ratio=4):
        super().__init__()
        self.fc1 = nn.Linear(dim, dim * ratio)
        self.act = nn.GELU()
        self.fc2 = nn.Linear(dim * ratio, dim)

    def forward(self, x):
        return self.fc2(self.act(self.fc1(x)))


class Block(nn.Module):
    def __init__(self, dim, heads, drop_path):
        super().__init__()
        self.norm1 = nn.LayerNorm(dim)
        self.attn = nn.MultiheadAttention(dim, heads, batch_first=True)
        self.norm2 = nn.LayerNorm(dim)
        self.mlp = Mlp(dim)
        self.drop_path = DropPath(drop_path)

    def forward(self, x):
        h = self.norm1(x)
        x = x + self.drop_path(self.attn(h, h, h, need_weights=False)[0])
        return x + self.drop_path(self.mlp(self.norm2(x)))


class Stage(nn.Module):
    def __init__(self, dim, depth, heads, drop_rates):
        super().__init__()
        self.blocks = nn.ModuleList(Block(dim, heads, r) for r in drop_rates)
        self.downsample = nn.Linear(dim, dim * 2)

    def forward(self, x):
        for blk in self.blocks:
            x = blk(x)
        return self.downsample(x)


class Backbone(nn.Module):
    def __init__(self, dims=(32, 64, 128), depths=(2, 2, 4), heads=(2, 4, 8), drop_path_rate=0.1):
        super().__init__()
        self.embed = nn.Linear(48, dims[0])
        # stochastic depth: the drop rate grows linearly over all blocks
        rates = [r.item() for r in torch.linspace(0, drop_path_rate, sum(depths))]
        stages, start = [], 0
        for dim, depth, h in zip(dims, depths, heads):
            stages.append(Stage(dim, depth, h, rates[start:start + depth]))
            start += depth
        self.stages = nn.ModuleList(stages)
        self.head = nn.Linear(dims[-1] * 2, 10)

    def forward(self, x):
        x = self.embed(x)
        for stage in self.stages:
            x = stage(x)
        return self.head(x.mean(1))


def count_params(model):
    return sum(p.numel() for p in model.parameters())


def plan_shards(model, n_devices=4):
    sizes = [(name, p.numel()) for name, p in model.named_parameters()]
    sizes.sort(key=lambda t: -t[1])
    loads = [0] * n_devices
    placement = {}
    for name, n in sizes:
        dev = loads.index(min(loads))
        loads[dev] += n
        placement[name] = dev
    return placement, loads


def main():
    with torch.device("meta"):
        model = Backbone()
    print(f"{count_params(model):,} parameters")
    placement, loads = plan_shards(model)
    print("per-device parameters:", loads)


if __name__ == "__main__":
    main()
