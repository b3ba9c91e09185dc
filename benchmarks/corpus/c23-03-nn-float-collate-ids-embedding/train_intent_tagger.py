"""Train a small intent classifier on synthetic utterances (token ids, padded per batch)."""
import argparse
import logging
import random

import torch
from torch import nn
from torch.utils.data import DataLoader, Dataset

log = logging.getLogger("intent")
PAD, VOCAB, N_INTENTS = 0, 500, 5


class Utterances(Dataset):
    def __init__(self, n: int, seed: int):
        rng = random.Random(seed)
        self.items = []
        for _ in range(n):
            intent = rng.randrange(N_INTENTS)
            length = rng.randint(4, 16)
            ids = [1 + (intent * 97 + rng.randrange(60)) % (VOCAB - 1) for _ in range(length)]
            self.items.append((ids, intent))

    def __len__(self):
        return len(self.items)

    def __getitem__(self, i):
        return self.items[i]


def collate(batch):
    max_len = max(len(ids) for ids, _ in batch)
    tokens = torch.zeros(len(batch), max_len)
    for row, (ids, _) in enumerate(batch):
        tokens[row, : len(ids)] = torch.tensor(ids)
    labels = torch.tensor([intent for _, intent in batch])
    return tokens, labels


class TokenEmbedding(nn.Module):
    def __init__(self, dim: int, max_len: int = 64):
        super().__init__()
        self.tok = nn.Embedding(VOCAB, dim, padding_idx=PAD)
        self.pos = nn.Parameter(torch.zeros(1, max_len, dim))

    def forward(self, tokens):
        return self.tok(tokens) + self.pos[:, : tokens.shape[1]]


class Encoder(nn.Module):
    def __init__(self, dim: int, layers: int):
        super().__init__()
        self.embed = TokenEmbedding(dim)
        layer = nn.TransformerEncoderLayer(dim, nhead=4, dim_feedforward=2 * dim, batch_first=True)
        self.stack = nn.TransformerEncoder(layer, layers, enable_nested_tensor=False)

    def forward(self, tokens):
        return self.stack(self.embed(tokens), src_key_padding_mask=tokens == PAD)


class IntentClassifier(nn.Module):
    def __init__(self, dim: int = 32, layers: int = 2):
        super().__init__()
        self.encoder = Encoder(dim, layers)
        self.head = nn.Linear(dim, N_INTENTS)

    def forward(self, tokens):
        h = self.encoder(tokens)
        keep = (tokens != PAD).unsqueeze(-1).to(h.dtype)
        return self.head((h * keep).sum(1) / keep.sum(1))


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("--epochs", type=int, default=2)
    p.add_argument("--batch-size", type=int, default=16)
    p.add_argument("--seed", type=int, default=0)
    args = p.parse_args(argv)
    logging.basicConfig(level=logging.INFO, format="%(name)s: %(message)s")
    torch.manual_seed(args.seed)
    loader = DataLoader(Utterances(256, args.seed), batch_size=args.batch_size, shuffle=True, collate_fn=collate)
    model = IntentClassifier()
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    for epoch in range(args.epochs):
        correct = total = 0
        for tokens, labels in loader:
            logits = model(tokens)
            loss = nn.functional.cross_entropy(logits, labels)
            opt.zero_grad()
            loss.backward()
            opt.step()
            correct += (logits.argmax(1) == labels).sum().item()
            total += len(labels)
        log.info("epoch %d: loss %.3f, train accuracy %.2f", epoch, loss.item(), correct / total)


if __name__ == "__main__":
    main()
