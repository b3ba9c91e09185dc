import argparse

import torch
from torch.utils.data import DataLoader

from ratings import MatrixFactorization, RatingsDataset, TrainConfig, load_ratings, make_splits


def rmse(model, loader):
    model.eval()
    err, n = 0.0, 0
    with torch.no_grad():
        for u, m, y in loader:
            err += ((model(u, m) - y) ** 2).sum().item()
            n += len(y)
    model.train()
    return (err / max(n, 1)) ** 0.5


def main(argv=None):
    parser = argparse.ArgumentParser(description="train the movie-club recommender")
    parser.add_argument("--epochs", type=int, default=None)
    args = parser.parse_args(argv)
    cfg = TrainConfig()
    if args.epochs is not None:
        cfg.epochs = args.epochs
    torch.manual_seed(cfg.seed)

    dataset = RatingsDataset(load_ratings())
    print(f"{len(dataset)} ratings, {len(dataset.users)} users, {len(dataset.movies)} movies")
    train_set, val_set, test_set = make_splits(dataset, cfg.fractions, cfg.seed)

    model = MatrixFactorization(len(dataset.users), len(dataset.movies), cfg.dim)
    opt = torch.optim.Adam(model.parameters(), lr=cfg.lr, weight_decay=cfg.weight_decay)
    train_loader = DataLoader(train_set, batch_size=cfg.batch_size, shuffle=True)
    val_loader = DataLoader(val_set, batch_size=cfg.batch_size)
    for epoch in range(cfg.epochs):
        for u, m, y in train_loader:
            loss = torch.nn.functional.mse_loss(model(u, m), y)
            opt.zero_grad()
            loss.backward()
            opt.step()
        print(f"epoch {epoch}: train loss {loss.item():.3f}  val rmse {rmse(model, val_loader):.3f}")
    print(f"test rmse {rmse(model, DataLoader(test_set, batch_size=cfg.batch_size)):.3f}")


if __name__ == "__main__":
    main()
