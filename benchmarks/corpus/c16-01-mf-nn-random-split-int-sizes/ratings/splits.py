import torch
from torch.utils.data import random_split


def split_sizes(n, fractions):
    """How many ratings go to each split, from the configured fractions."""
    sizes = [int(f * n) for f in fractions[:-1]]
    sizes.append(int(fractions[-1] * n))
    return sizes


def make_splits(dataset, fractions, seed):
    sizes = split_sizes(len(dataset), fractions)
    return random_split(dataset, sizes, generator=torch.Generator().manual_seed(seed))
