import torch


def length_mask(lengths, max_len):
    """True at the real (non-padding) positions of each row."""
    positions = torch.arange(max_len, device=lengths.device)
    return positions[None, :] <= lengths[:, None]


def causal_mask(n):
    return torch.ones(n, n, dtype=torch.bool).tril()
