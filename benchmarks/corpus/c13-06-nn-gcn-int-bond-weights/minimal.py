import torch


def to_graph(bonds):
    x = torch.ones(3, 2)
    src = [i for i, j, _ in bonds]
    dst = [j for i, j, _ in bonds]
    orders = [o for _, _, o in bonds]
    return x, torch.tensor([src, dst]), torch.tensor(orders)


def weighted_degree(dst, edge_weight, n_nodes):
    return torch.zeros(n_nodes).scatter_add_(0, dst, edge_weight) + 1.0  # + the self loop


x, edge_index, edge_weight = to_graph([(0, 1, 1), (1, 2, 2)])
weighted_degree(edge_index[1], edge_weight, x.size(0))
