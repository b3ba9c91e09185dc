"""Predict aqueous solubility (logS) of small molecules with a bond-order-weighted GCN."""
import argparse
import logging

import torch
from torch import nn

log = logging.getLogger("predict_solubility")

ELEMENTS = ("C", "N", "O", "S", "Cl")

# heavy atoms and bonds (i, j, bond order) — the real job parses the SMILES with RDKit
MOLECULES = {
    "ethanol": (["C", "C", "O"], [(0, 1, 1), (1, 2, 1)]),
    "acetone": (["C", "C", "C", "O"], [(0, 1, 1), (1, 2, 1), (1, 3, 2)]),
    "pyridine": (["C", "C", "C", "C", "C", "N"], [(0, 1, 2), (1, 2, 1), (2, 3, 2), (3, 4, 1), (4, 5, 2), (5, 0, 1)]),
    "chloroacetic acid": (["Cl", "C", "C", "O", "O"], [(0, 1, 1), (1, 2, 1), (2, 3, 2), (2, 4, 1)]),
}


def to_graph(atoms, bonds):
    x = torch.zeros(len(atoms), len(ELEMENTS))
    x[torch.arange(len(atoms)), torch.tensor([ELEMENTS.index(a) for a in atoms])] = 1.0
    src = [i for i, j, _ in bonds] + [j for i, j, _ in bonds]
    dst = [j for i, j, _ in bonds] + [i for i, j, _ in bonds]
    orders = [o for _, _, o in bonds] * 2
    return x, torch.tensor([src, dst]), torch.tensor(orders)


def weighted_degree(dst, edge_weight, n_nodes):
    return torch.zeros(n_nodes).scatter_add_(0, dst, edge_weight) + 1.0  # + the self loop


class GCNLayer(nn.Module):
    def __init__(self, d_in, d_out):
        super().__init__()
        self.lin = nn.Linear(d_in, d_out)

    def forward(self, x, edge_index, edge_weight):
        src, dst = edge_index
        deg = weighted_degree(dst, edge_weight, x.size(0))
        norm = edge_weight / (deg[src] * deg[dst]).sqrt()
        h = self.lin(x)
        out = h / deg.unsqueeze(-1)  # the self loop
        return torch.relu(out.index_add(0, dst, h[src] * norm.unsqueeze(-1)))


class GraphEncoder(nn.Module):
    def __init__(self, d_in, hidden, n_layers):
        super().__init__()
        dims = [d_in] + [hidden] * n_layers
        self.layers = nn.ModuleList(GCNLayer(a, b) for a, b in zip(dims[:-1], dims[1:]))

    def forward(self, x, edge_index, edge_weight):
        for layer in self.layers:
            x = layer(x, edge_index, edge_weight)
        return x.mean(dim=0)  # mean readout


class SolubilityNet(nn.Module):
    def __init__(self, hidden=32, n_layers=3):
        super().__init__()
        self.encoder = GraphEncoder(len(ELEMENTS), hidden, n_layers)
        self.head = nn.Sequential(nn.Linear(hidden, hidden), nn.ReLU(), nn.Linear(hidden, 1))

    def forward(self, x, edge_index, edge_weight):
        return self.head(self.encoder(x, edge_index, edge_weight)).squeeze(-1)


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--weights", help="trained weights (default: random init, for a smoke test)")
    args = parser.parse_args()
    logging.basicConfig(level=logging.INFO, format="%(name)s: %(message)s")
    torch.manual_seed(0)
    model = SolubilityNet().eval()
    if args.weights:
        model.load_state_dict(torch.load(args.weights))
    with torch.no_grad():
        for name, (atoms, bonds) in MOLECULES.items():
            log.info("%-18s logS %.2f", name, model(*to_graph(atoms, bonds)).item())


if __name__ == "__main__":
    main()
