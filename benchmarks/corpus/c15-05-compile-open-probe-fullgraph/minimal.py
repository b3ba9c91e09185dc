import torch


def probe(x, path):
    with open(path, "a", encoding="utf-8") as fh:
        fh.write(f"{x.mean():.5f}\n")
    return x


torch.compile(probe, backend="eager", fullgraph=True)(torch.ones(2), "probe.csv")
