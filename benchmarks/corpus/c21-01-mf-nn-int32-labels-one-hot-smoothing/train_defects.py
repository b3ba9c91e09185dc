"""Train the defect-type classifier on (synthetic) press-line vibration features."""

import argparse
import logging

import torch

from defectnet import DEFECT_TYPES, DefectClassifier, LabelSmoothingLoss, fit, make_loaders
from defectnet.data import NUM_FEATURES


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--epochs", type=int, default=3)
    parser.add_argument("--batch-size", type=int, default=32)
    parser.add_argument("--lr", type=float, default=3e-3)
    parser.add_argument("--smoothing", type=float, default=0.1)
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args()
    logging.basicConfig(level=logging.INFO, format="%(name)s: %(message)s")
    torch.manual_seed(args.seed)

    train_loader, val_loader = make_loaders(n_train=512, n_val=128, batch_size=args.batch_size, seed=args.seed)
    model = DefectClassifier(NUM_FEATURES, num_classes=len(DEFECT_TYPES))
    criterion = LabelSmoothingLoss(len(DEFECT_TYPES), smoothing=args.smoothing)
    optimizer = torch.optim.AdamW(model.parameters(), lr=args.lr, weight_decay=1e-2)
    history = fit(model, train_loader, val_loader, criterion, optimizer, args.epochs)
    print(f"best val acc {max(history):.3f} over {args.epochs} epochs")


if __name__ == "__main__":
    main()
