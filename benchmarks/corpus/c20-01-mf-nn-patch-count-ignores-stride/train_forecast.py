"""Train the patch mixer on a synthetic multivariate series (a quick smoke run before the real data)."""

import argparse
import logging

import torch
from torch.utils.data import DataLoader, TensorDataset

from tsmixer import MixerConfig, PatchMixer

log = logging.getLogger("train_forecast")


def synthetic_series(n_steps: int, n_channels: int, seed: int) -> torch.Tensor:
    g = torch.Generator().manual_seed(seed)
    t = torch.arange(n_steps, dtype=torch.float32)[:, None]
    periods = torch.linspace(12.0, 48.0, n_channels)[None, :]
    return torch.sin(2 * torch.pi * t / periods) + 0.1 * torch.randn(n_steps, n_channels, generator=g)


def windows(series: torch.Tensor, seq_len: int, horizon: int) -> TensorDataset:
    xs, ys = [], []
    for start in range(0, len(series) - seq_len - horizon, 4):
        xs.append(series[start:start + seq_len])
        ys.append(series[start + seq_len:start + seq_len + horizon])
    return TensorDataset(torch.stack(xs), torch.stack(ys))


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--epochs", type=int, default=1)
    parser.add_argument("--batch-size", type=int, default=16)
    parser.add_argument("--lr", type=float, default=1e-3)
    args = parser.parse_args()
    logging.basicConfig(level=logging.INFO, format="%(name)s: %(message)s")
    torch.manual_seed(0)

    cfg = MixerConfig()
    log.info("config: %s", cfg.describe())
    data = windows(synthetic_series(600, cfg.n_channels, seed=1), cfg.seq_len, cfg.horizon)
    loader = DataLoader(data, batch_size=args.batch_size, shuffle=True)
    model = PatchMixer(cfg)
    log.info("%d parameters, %d training windows", model.n_parameters(), len(data))
    opt = torch.optim.AdamW(model.parameters(), lr=args.lr)

    for epoch in range(args.epochs):
        total = 0.0
        for x, y in loader:
            loss = torch.nn.functional.mse_loss(model(x), y)
            opt.zero_grad()
            loss.backward()
            opt.step()
            total += loss.item() * len(x)
        log.info("epoch %d: mse %.4f", epoch, total / len(data))


if __name__ == "__main__":
    main()
