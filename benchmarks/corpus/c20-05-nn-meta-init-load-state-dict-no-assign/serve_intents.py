"""Train a tiny intent classifier, export it, then reload it the fast way for serving."""

import argparse
import io
import logging
import zlib

import torch
import torch.nn.functional as F
from torch import nn

log = logging.getLogger("serve_intents")
INTENTS = {
    "greeting": ["hi there", "hello", "good morning team", "hey how are you"],
    "refund": ["i want my money back", "refund please", "charge me back for the order"],
    "shipping": ["where is my parcel", "when does it ship", "tracking number please"],
    "cancel": ["cancel my order", "stop the subscription", "please cancel it"],
}


def featurize(texts: list[str], n_features: int) -> torch.Tensor:
    """Hashed bag of words (a stable hash: crc32), L2-normalized."""
    x = torch.zeros(len(texts), n_features)
    for i, text in enumerate(texts):
        for word in text.lower().split():
            x[i, zlib.crc32(word.encode()) % n_features] += 1.0
    return F.normalize(x, dim=1)


class ResidualMLP(nn.Module):
    def __init__(self, dim: int, hidden: int):
        super().__init__()
        self.norm = nn.LayerNorm(dim)
        self.fc1 = nn.Linear(dim, hidden)
        self.fc2 = nn.Linear(hidden, dim)

    def forward(self, x):
        return x + self.fc2(F.gelu(self.fc1(self.norm(x))))


class Encoder(nn.Module):
    def __init__(self, n_features: int, dim: int, depth: int):
        super().__init__()
        self.proj = nn.Linear(n_features, dim)
        self.blocks = nn.Sequential(*[ResidualMLP(dim, 2 * dim) for _ in range(depth)])

    def forward(self, x):
        return self.blocks(self.proj(x))


class IntentClassifier(nn.Module):
    def __init__(self, n_features: int, dim: int, n_classes: int, depth: int = 2):
        super().__init__()
        self.encoder = Encoder(n_features, dim, depth)
        self.head = nn.Linear(dim, n_classes)

    def forward(self, x):
        return self.head(self.encoder(x))


def train(args, texts: list[str], labels: torch.Tensor) -> bytes:
    model = IntentClassifier(args.features, args.dim, len(INTENTS))
    opt = torch.optim.Adam(model.parameters(), lr=1e-2)
    x = featurize(texts, args.features)
    for _ in range(args.steps):
        loss = F.cross_entropy(model(x), labels)
        opt.zero_grad()
        loss.backward()
        opt.step()
    log.info("trained %d steps, last loss %.3f", args.steps, loss.item())
    buf = io.BytesIO()
    torch.save(model.state_dict(), buf)
    return buf.getvalue()


def load_for_inference(blob: bytes, args) -> IntentClassifier:
    # skip the random init: build the modules on the meta device, the checkpoint fills them in
    with torch.device("meta"):
        model = IntentClassifier(args.features, args.dim, len(INTENTS))
    state = torch.load(io.BytesIO(blob), map_location="cpu", weights_only=True)
    model.load_state_dict(state)
    return model.eval()


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--features", type=int, default=256)
    parser.add_argument("--dim", type=int, default=32)
    parser.add_argument("--steps", type=int, default=20)
    args = parser.parse_args()
    logging.basicConfig(level=logging.INFO, format="%(name)s: %(message)s")
    torch.manual_seed(0)

    names = list(INTENTS)
    texts = [t for name in names for t in INTENTS[name]]
    labels = torch.tensor([names.index(name) for name in names for _ in INTENTS[name]])
    blob = train(args, texts, labels)
    log.info("exported %d bytes", len(blob))

    model = load_for_inference(blob, args)
    requests = ["hello there", "where is my order", "cancel the subscription please"]
    with torch.inference_mode():
        pred = model(featurize(requests, args.features)).argmax(dim=1)
    for text, k in zip(requests, pred.tolist()):
        print(f"{text!r} -> {names[k]}")


if __name__ == "__main__":
    main()
