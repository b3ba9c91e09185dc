"""Train a character-level GRU language model with truncated backpropagation through time."""
import argparse

import torch
import torch.nn.functional as F
from torch import nn

TEXT = ("the quick brown fox jumps over the lazy dog. " * 4 + "pack my box with five dozen liquor jugs. " * 4)


class CharLM(nn.Module):
    def __init__(self, vocab, dim=32, hidden=64):
        super().__init__()
        self.hidden_size = hidden
        self.embed = nn.Embedding(vocab, dim)
        self.rnn = nn.GRU(dim, hidden, batch_first=True)
        self.out = nn.Linear(hidden, vocab)

    def init_hidden(self, batch):
        return torch.zeros(1, batch, self.hidden_size)

    def forward(self, x, hidden):
        y, hidden = self.rnn(self.embed(x), hidden)
        return self.out(y), hidden


def batches(ids, batch, bptt):
    """Split the stream into `batch` parallel rows and walk along them `bptt` characters at a time."""
    n = (len(ids) - 1) // batch
    data = ids[: n * batch + 1]
    rows = torch.stack([data[i * n: (i + 1) * n + 1] for i in range(batch)])
    for start in range(0, n - 1, bptt):
        end = min(start + bptt, n)
        yield rows[:, start:end], rows[:, start + 1:end + 1]


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--epochs", type=int, default=2)
    parser.add_argument("--batch", type=int, default=4)
    parser.add_argument("--bptt", type=int, default=16)
    args = parser.parse_args()

    torch.manual_seed(0)
    chars = sorted(set(TEXT))
    stoi = {c: i for i, c in enumerate(chars)}
    ids = torch.tensor([stoi[c] for c in TEXT])
    model = CharLM(len(chars))
    opt = torch.optim.Adam(model.parameters(), lr=3e-3)

    for epoch in range(args.epochs):
        hidden = model.init_hidden(args.batch)
        total, count = 0.0, 0
        for inputs, targets in batches(ids, args.batch, args.bptt):
            logits, hidden = model(inputs, hidden)
            loss = F.cross_entropy(logits.reshape(-1, len(chars)), targets.reshape(-1))
            opt.zero_grad()
            loss.backward()
            nn.utils.clip_grad_norm_(model.parameters(), 1.0)
            opt.step()
            total, count = total + loss.item(), count + 1
        print(f"epoch {epoch}: mean loss {total / count:.3f}")


if __name__ == "__main__":
    main()
