"""Score support-ticket titles with the intent classifier, compiled for serving."""

import argparse
import os
import tempfile

import torch
from torch import nn

INTENTS = ["billing", "shipping", "returns", "account", "other"]
VOCAB = {w: i + 1 for i, w in enumerate(
    "refund invoice charged twice card package late tracking arrived broken return label "
    "password login reset email address delivery order cancel size exchange".split())}
TICKETS = [
    "charged twice on my card",
    "package arrived broken",
    "password reset email never came",
    "tracking says delivered but no package",
]
MAX_TOKENS = 8


def encode(title):
    ids = [VOCAB.get(w, 0) for w in title.lower().split()][:MAX_TOKENS]
    return ids + [0] * (MAX_TOKENS - len(ids))


class ActivationProbe(nn.Module):
    """Appends each batch's activation mean and std to a CSV file (for drift dashboards)."""

    def __init__(self, name, path):
        super().__init__()
        self.name, self.path = name, path

    def forward(self, x):
        if self.path:
            with open(self.path, "a", encoding="utf-8") as fh:
                fh.write(f"{self.name},{x.mean():.5f},{x.std():.5f}\n")
        return x


class IntentClassifier(nn.Module):
    def __init__(self, vocab_size, dim, n_classes, probe_csv=None):
        super().__init__()
        self.embed = nn.EmbeddingBag(vocab_size, dim, mode="mean", padding_idx=0)
        self.hidden = nn.Sequential(nn.Linear(dim, dim), nn.ReLU())
        self.probe = ActivationProbe("hidden", probe_csv)
        self.head = nn.Linear(dim, n_classes)

    def forward(self, token_ids):
        h = self.hidden(self.embed(token_ids))
        return self.head(self.probe(h))


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--eager", action="store_true")
    p.add_argument("--probe-csv", default=os.path.join(tempfile.gettempdir(), "intent_probe.csv"))
    args = p.parse_args()
    torch.manual_seed(0)
    model = IntentClassifier(len(VOCAB) + 1, 32, len(INTENTS), probe_csv=args.probe_csv).eval()
    if not args.eager:
        model = torch.compile(model, backend="eager", fullgraph=True)
    batch = torch.tensor([encode(t) for t in TICKETS])
    with torch.no_grad():
        probs = model(batch).softmax(dim=-1)
    for title, row in zip(TICKETS, probs):
        best = int(row.argmax())
        print(f"{INTENTS[best]:>9} {row[best]:.2f}  {title}")


if __name__ == "__main__":
    main()
