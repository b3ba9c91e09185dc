"""Train the day-ahead load forecaster on the meter's recent readings."""

import argparse

import torch
from torch.utils.data import DataLoader

from loadcast import ForecastConfig, SlidingWindows, WindowMLP, load_series


def parse_args():
    p = argparse.ArgumentParser()
    p.add_argument("--epochs", type=int, default=None)
    p.add_argument("--days", type=int, default=None)
    return p.parse_args()


def main():
    args = parse_args()
    cfg = ForecastConfig()
    if args.epochs is not None:
        cfg.epochs = args.epochs
    if args.days is not None:
        cfg.days = args.days
    torch.manual_seed(cfg.seed)

    series = load_series(cfg.days)
    data = SlidingWindows(series, cfg.window, cfg.horizon)
    loader = DataLoader(data, batch_size=cfg.batch_size, shuffle=False)
    model = WindowMLP(cfg.window, cfg.horizon, cfg.hidden)
    opt = torch.optim.AdamW(model.parameters(), lr=cfg.lr)
    loss_fn = torch.nn.MSELoss()

    for epoch in range(cfg.epochs):
        total, seen = 0.0, 0
        for x, y in loader:
            pred = model(x)
            loss = loss_fn(pred, y)
            opt.zero_grad()
            loss.backward()
            opt.step()
            total += loss.item() * len(x)
            seen += len(x)
        print(f"epoch {epoch}: mse {total / seen:.4f} over {seen} windows")

    with torch.no_grad():
        last = series[-cfg.window:].unsqueeze(0)
        print("next hours (standardized):", [round(v, 2) for v in model(last)[0].tolist()])


if __name__ == "__main__":
    main()
