"""Forecast the next hours of a substation's load from its recent history and the calendar."""
import argparse
import logging
from dataclasses import dataclass

import torch
from torch import nn

log = logging.getLogger("forecast_load")


@dataclass
class ForecastConfig:
    history: int = 48  # hours of past load the model sees
    horizon: int = 6
    dim: int = 32
    start_hour: int = 17  # hour of day of the first history step
    start_weekday: int = 4


class CalendarFeatures(nn.Module):
    """Hour-of-day and weekday of every step, projected to the model width."""

    def __init__(self, dim):
        super().__init__()
        self.proj = nn.Linear(2, dim)

    def forward(self, seq_len, start_hour, start_weekday):
        steps = torch.arange(seq_len)
        hour = (start_hour + steps) % 24
        weekday = (start_weekday + (start_hour + steps) // 24) % 7
        feats = torch.stack([hour, weekday], dim=-1)
        return self.proj(feats)


class SeriesEncoder(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.value = nn.Linear(1, dim)
        self.calendar = CalendarFeatures(dim)
        self.rnn = nn.GRU(dim, dim, batch_first=True)

    def forward(self, load, start_hour, start_weekday):
        x = self.value(load.unsqueeze(-1)) + self.calendar(load.size(1), start_hour, start_weekday)
        _, h = self.rnn(x)
        return h[-1]


class LoadForecaster(nn.Module):
    def __init__(self, cfg):
        super().__init__()
        self.cfg = cfg
        self.encoder = SeriesEncoder(cfg.dim)
        self.head = nn.Linear(cfg.dim, cfg.horizon)

    def forward(self, load):
        return self.head(self.encoder(load, self.cfg.start_hour, self.cfg.start_weekday))


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--substations", type=int, default=3)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    logging.basicConfig(level=logging.INFO, format="%(name)s: %(message)s")
    torch.manual_seed(args.seed)
    cfg = ForecastConfig()
    model = LoadForecaster(cfg).eval()
    load = 0.5 + 0.1 * torch.randn(args.substations, cfg.history)  # normalized MW
    with torch.no_grad():
        forecast = model(load)
    log.info("forecast %s for the next %d hours", tuple(forecast.shape), cfg.horizon)


if __name__ == "__main__":
    main()
