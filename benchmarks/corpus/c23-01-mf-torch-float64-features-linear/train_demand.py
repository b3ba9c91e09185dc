"""Train a demand regressor on synthetic store sales and report the held-out error."""
import argparse
import logging

import torch

from forecast import DemandRegressor, FeatureBuilder, Trainer, load_history

log = logging.getLogger("train_demand")


def parse_args(argv=None):
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("--stores", type=int, default=6)
    p.add_argument("--days", type=int, default=60)
    p.add_argument("--epochs", type=int, default=2)
    p.add_argument("--batch-size", type=int, default=32)
    p.add_argument("--lr", type=float, default=3e-3)
    p.add_argument("--seed", type=int, default=7)
    return p.parse_args(argv)


def main(argv=None):
    args = parse_args(argv)
    logging.basicConfig(level=logging.INFO, format="%(name)s: %(message)s")
    torch.manual_seed(args.seed)
    records = load_history(args.stores, args.days, seed=args.seed)
    builder = FeatureBuilder()
    features, targets = builder.fit_transform(records)
    split = int(0.8 * len(features))
    model = DemandRegressor(builder.n_features)
    trainer = Trainer(model, args.lr, args.batch_size)
    final = trainer.fit(features[:split], targets[:split], args.epochs)
    model.eval()
    with torch.no_grad():
        mae = (model(features[split:]) - targets[split:]).abs().mean().item()
    log.info("final train loss %.3f, held-out MAE %.2f units", final, mae)


if __name__ == "__main__":
    main()
