import torch
from torch import nn


def length_mask(lengths, max_len):
    positions = torch.arange(max_len)
    return positions[None, :] <= lengths[:, None]


def main():
    torch.manual_seed(7)
    embed = nn.Embedding(64, 8, padding_idx=0)
    proj = nn.Linear(8, 6)
    rows = [[2, 3, 4, 2, 5, 6, 7], [8, 9, 10, 11], [12, 13, 14, 2, 15, 16, 17], [18, 19, 13, 20, 21, 22, 17]]
    ids = torch.tensor([r + [0] * (7 - len(r)) for r in rows])
    with torch.no_grad():
        mask = length_mask(torch.tensor([len(r) for r in rows]), 7).unsqueeze(-1).float()
        got = proj((embed(ids) * mask).sum(dim=1) / mask.sum(dim=1))
        want = torch.stack([proj(embed(torch.tensor(r)).mean(dim=0)) for r in rows])
    torch.testing.assert_close(got, want)


main()
