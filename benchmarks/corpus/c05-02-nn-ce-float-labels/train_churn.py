"""Train a small churn classifier on a table of customer features."""
import argparse
import random

import torch
import torch.nn.functional as F
from torch import nn

FEATURES = ["tenure", "monthly", "support_calls", "late_payments"]


def synthetic_rows(n, seed):
    rng = random.Random(seed)
    rows = []
    for _ in range(n):
        tenure = rng.randint(1, 72)
        monthly = rng.uniform(20, 120)
        calls = rng.randint(0, 9)
        late = rng.randint(0, 4)
        churned = int(calls > 5 or late > 2)
        rows.append([tenure, monthly, calls, late, churned])
    return rows


def to_tensors(rows):
    table = torch.tensor(rows, dtype=torch.float32)
    features, labels = table[:, :-1], table[:, -1]
    features = (features - features.mean(0)) / features.std(0)
    return features, labels


class ChurnNet(nn.Module):
    def __init__(self, n_features, hidden=16, n_classes=2):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(n_features, hidden), nn.ReLU(), nn.Linear(hidden, hidden), nn.ReLU())
        self.head = nn.Linear(hidden, n_classes)

    def forward(self, x):
        return self.head(self.body(x))


def train(model, features, labels, epochs, lr):
    opt = torch.optim.Adam(model.parameters(), lr=lr)
    for epoch in range(epochs):
        opt.zero_grad()
        logits = model(features)
        loss = F.cross_entropy(logits, labels)
        loss.backward()
        opt.step()
        if epoch % 10 == 0:
            print(f"epoch {epoch}: loss {loss.item():.4f}")
    return model


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--rows", type=int, default=256)
    parser.add_argument("--epochs", type=int, default=30)
    parser.add_argument("--lr", type=float, default=1e-2)
    args = parser.parse_args()
    torch.manual_seed(0)
    features, labels = to_tensors(synthetic_rows(args.rows, seed=1))
    model = train(ChurnNet(len(FEATURES)), features, labels, args.epochs, args.lr)
    with torch.no_grad():
        accuracy = (model(features).argmax(1) == labels).float().mean()
    print(f"train accuracy {accuracy:.3f}")


if __name__ == "__main__":
    main()
