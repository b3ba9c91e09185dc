"""Check a custom torch.compile backend (graph passes for a fused-activation accelerator) against eager."""
import operator

import torch
import torch.nn.functional as F
from torch import fx, nn

torch.manual_seed(0)


def fold_identity_dropout(gm: fx.GraphModule) -> int:
    """Dropout in eval mode is the identity: drop the node."""
    removed = 0
    for node in list(gm.graph.nodes):
        if node.op == "call_function" and node.target is F.dropout and node.kwargs.get("training") is False:
            node.replace_all_uses_with(node.args[0])
            gm.graph.erase_node(node)
            removed += 1
    return removed


def use_fast_gelu(gm: fx.GraphModule) -> int:
    """The accelerator has a fused tanh-GELU unit: route every GELU to it."""
    changed = 0
    for node in gm.graph.nodes:
        if node.op == "call_function" and node.target is F.gelu:
            node.kwargs = {**node.kwargs, "approximate": "tanh"}
            changed += 1
    return changed


def count_adds(gm: fx.GraphModule) -> int:
    return sum(1 for n in gm.graph.nodes if n.op == "call_function" and n.target in (operator.add, torch.add))


STATS = {}


def accel_backend(gm: fx.GraphModule, example_inputs):
    STATS["dropout_removed"] = fold_identity_dropout(gm)
    STATS["gelu_fused"] = use_fast_gelu(gm)
    STATS["adds"] = count_adds(gm)
    gm.graph.lint()
    gm.recompile()
    return gm.forward


class MlpBlock(nn.Module):
    def __init__(self, dim, hidden, p=0.1):
        super().__init__()
        self.norm = nn.LayerNorm(dim)
        self.fc1 = nn.Linear(dim, hidden)
        self.fc2 = nn.Linear(hidden, dim)
        self.p = p

    def forward(self, x):
        h = F.gelu(self.fc1(self.norm(x)))
        h = F.dropout(h, self.p, training=self.training)
        return x + self.fc2(h)


class Tower(nn.Module):
    def __init__(self, dim=32, depth=3):
        super().__init__()
        self.blocks = nn.ModuleList(MlpBlock(dim, dim * 4) for _ in range(depth))
        self.head = nn.Linear(dim, 8)

    def forward(self, x):
        for blk in self.blocks:
            x = blk(x)
        return self.head(x)


def main():
    model = Tower().eval()
    x = torch.randn(16, 32)
    compiled = torch.compile(model, backend=accel_backend)
    with torch.no_grad():
        expected = model(x)
        actual = compiled(x)
    print("backend stats:", STATS)
    torch.testing.assert_close(actual, expected)
    print("compiled output matches eager")


if __name__ == "__main__":
    main()
