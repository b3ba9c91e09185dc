"""Train a small intent classifier for the support chatbot (BiLSTM encoder + attention pooling).

    python train_intents.py [--epochs 5] [--hidden 64] [--no-bidirectional]
"""

import argparse
import logging
import random
from collections import Counter

import torch
from torch import nn
from torch.utils.data import DataLoader, Dataset

log = logging.getLogger("intents")

UTTERANCES = {
    "refund": ["i want my money back", "how do i get a refund", "refund my last order please",
               "can you refund the shipping fee", "the item broke i need a refund"],
    "track": ["where is my parcel", "track my order", "has my package shipped yet",
              "my delivery is late where is it", "what is the tracking number"],
    "cancel": ["cancel my order", "i changed my mind cancel it", "please stop the order before it ships",
               "how can i cancel a subscription", "cancel the second item only"],
    "address": ["change my delivery address", "i moved please update the address",
                "ship it to my office instead", "wrong postcode on my order", "edit the shipping address"],
}
PAD, UNK = "<pad>", "<unk>"


def build_vocab(texts, min_count=1):
    counts = Counter(w for t in texts for w in t.split())
    vocab = [PAD, UNK] + sorted(w for w, c in counts.items() if c >= min_count)
    return {w: i for i, w in enumerate(vocab)}


class IntentDataset(Dataset):
    def __init__(self, samples, vocab, labels):
        self.samples, self.vocab, self.labels = samples, vocab, labels

    def __len__(self):
        return len(self.samples)

    def __getitem__(self, i):
        text, intent = self.samples[i]
        ids = [self.vocab.get(w, self.vocab[UNK]) for w in text.split()]
        return torch.tensor(ids), self.labels[intent]


def collate(batch):
    ids, labels = zip(*batch)
    padded = nn.utils.rnn.pad_sequence(ids, batch_first=True, padding_value=0)
    return padded, torch.tensor(labels)


class SentenceEncoder(nn.Module):
    def __init__(self, vocab_size, emb_dim, hidden_size, bidirectional=True, dropout=0.1):
        super().__init__()
        self.embed = nn.Embedding(vocab_size, emb_dim, padding_idx=0)
        self.rnn = nn.LSTM(emb_dim, hidden_size, batch_first=True, bidirectional=bidirectional)
        self.drop = nn.Dropout(dropout)
        self.out_dim = hidden_size

    def forward(self, ids):
        out, _ = self.rnn(self.drop(self.embed(ids)))
        return out                                           # (B, T, out_dim)


class AttentionPool(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.score = nn.Linear(dim, 1)

    def forward(self, h, mask):
        w = self.score(h).squeeze(-1).masked_fill(~mask, float("-inf"))
        return (torch.softmax(w, dim=1).unsqueeze(-1) * h).sum(dim=1)


class ClassifierHead(nn.Module):
    def __init__(self, in_dim, n_classes, hidden=32, dropout=0.2):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(in_dim, hidden), nn.ReLU(), nn.Dropout(dropout),
                                 nn.Linear(hidden, n_classes))

    def forward(self, x):
        return self.net(x)


class IntentClassifier(nn.Module):
    def __init__(self, vocab_size, n_classes, emb_dim=32, hidden_size=64, bidirectional=True):
        super().__init__()
        self.encoder = SentenceEncoder(vocab_size, emb_dim, hidden_size, bidirectional)
        enc_dim = 2 * hidden_size if bidirectional else hidden_size
        self.pool = AttentionPool(enc_dim)
        self.head = ClassifierHead(self.encoder.out_dim, n_classes)

    def forward(self, ids):
        h = self.encoder(ids)
        pooled = self.pool(h, ids != 0)
        return self.head(pooled)


def main():
    logging.basicConfig(level=logging.INFO, format="%(levelname)s %(message)s")
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("--epochs", type=int, default=5)
    p.add_argument("--hidden", type=int, default=64)
    p.add_argument("--batch-size", type=int, default=8)
    p.add_argument("--no-bidirectional", action="store_true")
    p.add_argument("--seed", type=int, default=3)
    args = p.parse_args()
    random.seed(args.seed)
    torch.manual_seed(args.seed)
    samples = [(t, intent) for intent, texts in UTTERANCES.items() for t in texts]
    random.shuffle(samples)
    labels = {intent: i for i, intent in enumerate(sorted(UTTERANCES))}
    vocab = build_vocab(t for t, _ in samples)
    log.info("%d utterances, %d intents, vocabulary of %d", len(samples), len(labels), len(vocab))
    loader = DataLoader(IntentDataset(samples, vocab, labels), batch_size=args.batch_size, shuffle=True,
                        collate_fn=collate)
    model = IntentClassifier(len(vocab), len(labels), hidden_size=args.hidden,
                             bidirectional=not args.no_bidirectional)
    opt = torch.optim.Adam(model.parameters(), lr=5e-3)
    loss_fn = nn.CrossEntropyLoss()
    for epoch in range(args.epochs):
        model.train()
        total, correct, seen = 0.0, 0, 0
        for ids, y in loader:
            opt.zero_grad()
            logits = model(ids)
            loss = loss_fn(logits, y)
            loss.backward()
            opt.step()
            total += loss.item() * len(y)
            correct += (logits.argmax(1) == y).sum().item()
            seen += len(y)
        log.info("epoch %d: loss %.3f, accuracy %.2f", epoch + 1, total / seen, correct / seen)


if __name__ == "__main__":
    main()
