"""Train the crop-stress classifier on the latest drone survey (normalized with the survey's own stats)."""
import argparse
import logging

import torch
from torch import nn
from torch.utils.data import DataLoader

from cropscan.config import ScanConfig
from cropscan.data import TileDataset, make_tiles
from cropscan.model import StressNet
from cropscan.stats import channel_stats
from cropscan.transforms import build_pipeline

log = logging.getLogger("train_cropscan")


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args()
    logging.basicConfig(level=logging.INFO, format="%(name)s: %(message)s")
    torch.manual_seed(args.seed)
    cfg = ScanConfig()

    images, labels = make_tiles(cfg, args.seed)
    mean, std = channel_stats(images)
    log.info("survey mean %s, std %s", mean.flatten().tolist(), std.flatten().tolist())
    transform = build_pipeline(cfg.pipeline, mean=mean, std=std, hflip_p=cfg.hflip_p,
                               generator=torch.Generator().manual_seed(args.seed))
    loader = DataLoader(TileDataset(images, labels, transform), batch_size=cfg.batch_size, shuffle=True)

    model = StressNet(cfg.channels, cfg.widths, cfg.n_classes)
    opt = torch.optim.Adam(model.parameters(), lr=cfg.lr)
    criterion = nn.CrossEntropyLoss()
    for epoch in range(cfg.epochs):
        model.train()
        for x, y in loader:
            loss = criterion(model(x), y)
            opt.zero_grad()
            loss.backward()
            opt.step()
        log.info("epoch %d: last batch loss %.4f", epoch, loss.item())


if __name__ == "__main__":
    main()
