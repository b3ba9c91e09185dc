import torch


def synthetic_loader(cfg, steps):
    g = torch.Generator().manual_seed(1)
    for _ in range(steps):
        images = torch.randn(cfg["batch_size"], 3, cfg["image_size"], cfg["image_size"], generator=g)
        labels = torch.randint(0, cfg["classes"], (cfg["batch_size"],), generator=g)
        yield images, labels
