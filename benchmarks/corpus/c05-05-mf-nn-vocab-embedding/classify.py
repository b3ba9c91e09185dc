"""Train a tiny sentiment classifier on a handful of reviews and print its predictions."""
import torch
import torch.nn.functional as F

from textcls.model import build
from textcls.vocab import Vocab

REVIEWS = [
    ("great battery and a bright screen", 1),
    ("stopped working after a week", 0),
    ("fast shipping great price", 1),
    ("screen cracked and support never answered", 0),
    ("works as described", 1),
    ("zero stars would not buy again", 0),
]
MAX_LEN = 8


def batches(vocab, rows, size):
    for start in range(0, len(rows), size):
        chunk = rows[start:start + size]
        ids = torch.tensor([vocab.encode(text, MAX_LEN) for text, _ in chunk])
        labels = torch.tensor([label for _, label in chunk])
        yield ids, labels


def main():
    torch.manual_seed(0)
    vocab = Vocab(text for text, _ in REVIEWS)
    model = build(vocab)
    opt = torch.optim.SGD(model.parameters(), lr=0.5)
    for epoch in range(5):
        total = 0.0
        for ids, labels in batches(vocab, REVIEWS, size=3):
            opt.zero_grad()
            loss = F.cross_entropy(model(ids), labels)
            loss.backward()
            opt.step()
            total += loss.item()
        print(f"epoch {epoch}: {total:.3f}")


if __name__ == "__main__":
    main()
