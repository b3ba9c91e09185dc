"""Score variable-length user sessions (event embeddings) with a small attention model."""
import argparse
import logging
import random

import torch
from torch import nn
from torch.nn.utils.rnn import pad_sequence

log = logging.getLogger("sessions")
N_EVENT_TYPES, DIM = 12, 32


def make_sessions(n: int, seed: int) -> list[tuple[torch.Tensor, float]]:
    rng = random.Random(seed)
    sessions = []
    for _ in range(n):
        length = rng.randint(3, 20)
        events = torch.tensor([rng.randrange(N_EVENT_TYPES) for _ in range(length)])
        converted = float((events == 7).sum().item() >= 2)
        sessions.append((events, converted))
    return sessions


def batch_sessions(sessions):
    """Pad a list of sessions into (batch, time) event ids and a padding mask, True where padded."""
    events = pad_sequence([ev for ev, _ in sessions], batch_first=True)
    pad_flags = [torch.zeros(len(ev), dtype=torch.bool) for ev, _ in sessions]
    key_padding_mask = pad_sequence(pad_flags, padding_value=True)
    targets = torch.tensor([y for _, y in sessions])
    return events, key_padding_mask, targets


class AttentionBlock(nn.Module):
    def __init__(self, dim: int, heads: int):
        super().__init__()
        self.norm1, self.norm2 = nn.LayerNorm(dim), nn.LayerNorm(dim)
        self.attn = nn.MultiheadAttention(dim, heads, dropout=0.1, batch_first=True)
        self.mlp = nn.Sequential(nn.Linear(dim, 2 * dim), nn.GELU(), nn.Linear(2 * dim, dim))

    def forward(self, x, key_padding_mask):
        h = self.norm1(x)
        x = x + self.attn(h, h, h, key_padding_mask=key_padding_mask, need_weights=False)[0]
        return x + self.mlp(self.norm2(x))


class SessionScorer(nn.Module):
    def __init__(self, depth: int = 2, heads: int = 4):
        super().__init__()
        self.embed = nn.Embedding(N_EVENT_TYPES, DIM)
        self.blocks = nn.ModuleList(AttentionBlock(DIM, heads) for _ in range(depth))
        self.out = nn.Linear(DIM, 1)

    def forward(self, events, key_padding_mask):
        x = self.embed(events)
        for block in self.blocks:
            x = block(x, key_padding_mask)
        keep = (~key_padding_mask).unsqueeze(-1).float()
        return self.out((x * keep).sum(1) / keep.sum(1)).squeeze(-1)


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("--sessions", type=int, default=96)
    p.add_argument("--batch-size", type=int, default=16)
    p.add_argument("--steps", type=int, default=20)
    p.add_argument("--seed", type=int, default=0)
    args = p.parse_args(argv)
    logging.basicConfig(level=logging.INFO, format="%(name)s: %(message)s")
    torch.manual_seed(args.seed)
    data = make_sessions(args.sessions, args.seed)
    model = SessionScorer()
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    loss_fn = nn.BCEWithLogitsLoss()
    for step in range(args.steps):
        chunk = random.Random(step).sample(data, args.batch_size)
        events, mask, targets = batch_sessions(chunk)
        loss = loss_fn(model(events, mask), targets)
        opt.zero_grad()
        loss.backward()
        opt.step()
        if step % 5 == 0:
            log.info("step %d: loss %.3f", step, loss.item())


if __name__ == "__main__":
    main()
