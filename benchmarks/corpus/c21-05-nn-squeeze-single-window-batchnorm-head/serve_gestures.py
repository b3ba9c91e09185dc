"""Train a small wrist-IMU gesture classifier, then classify a live stream one window at a time."""

import argparse
import logging

import torch
import torch.nn.functional as F
from torch import nn

log = logging.getLogger("serve_gestures")
GESTURES = ("idle", "swipe_left", "swipe_right", "tap", "twist")


class ConvBlock(nn.Module):
    def __init__(self, c_in: int, c_out: int, stride: int):
        super().__init__()
        self.conv = nn.Conv1d(c_in, c_out, kernel_size=5, stride=stride, padding=2)
        self.norm = nn.BatchNorm1d(c_out)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return F.gelu(self.norm(self.conv(x)))


class GlobalAvgPool(nn.Module):
    def forward(self, x: torch.Tensor) -> torch.Tensor:  # (batch, channels, time) -> (batch, channels)
        return F.adaptive_avg_pool1d(x, 1).squeeze()


class ClassifierHead(nn.Module):
    def __init__(self, width: int, hidden: int, num_classes: int, dropout: float):
        super().__init__()
        self.mlp = nn.Sequential(nn.Linear(width, hidden), nn.BatchNorm1d(hidden), nn.ReLU(), nn.Dropout(dropout),
                                 nn.Linear(hidden, num_classes))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.mlp(x)


class GestureNet(nn.Module):
    def __init__(self, channels: int = 6, width: int = 32, num_classes: int = len(GESTURES)):
        super().__init__()
        self.encoder = nn.Sequential(ConvBlock(channels, width, 1), ConvBlock(width, width, 2), ConvBlock(width, width, 2))
        self.pool = GlobalAvgPool()
        self.head = ClassifierHead(width, 16, num_classes, dropout=0.2)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.head(self.pool(self.encoder(x)))


def synthetic_windows(n: int, length: int, generator: torch.Generator) -> tuple[torch.Tensor, torch.Tensor]:
    labels = torch.randint(0, len(GESTURES), (n,), generator=generator)
    t = torch.linspace(0, 1, length)
    freq = (labels.float() + 1).view(-1, 1, 1)
    x = torch.sin(2 * torch.pi * freq * t) + 0.3 * torch.randn(n, 6, length, generator=generator)
    return x, labels


def train(model: nn.Module, steps: int, batch: int, length: int, generator: torch.Generator) -> None:
    opt = torch.optim.Adam(model.parameters(), lr=2e-3)
    model.train()
    for step in range(steps):
        x, y = synthetic_windows(batch, length, generator)
        loss = F.cross_entropy(model(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        if step % 10 == 0:
            log.info("step %d: loss %.3f", step, loss.item())


@torch.no_grad()
def stream(model: nn.Module, windows: torch.Tensor) -> list[str]:
    model.eval()
    out = []
    for window in windows:  # one (channels, time) window per 0.5 s from the watch
        logits = model(window.unsqueeze(0))
        out.append(GESTURES[int(logits.argmax(-1))])
    return out


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--steps", type=int, default=20)
    parser.add_argument("--batch", type=int, default=16)
    parser.add_argument("--window", type=int, default=50)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    logging.basicConfig(level=logging.INFO, format="%(name)s: %(message)s")
    torch.manual_seed(args.seed)
    generator = torch.Generator().manual_seed(args.seed)

    model = GestureNet()
    train(model, args.steps, args.batch, args.window, generator)
    live, truth = synthetic_windows(8, args.window, generator)
    predicted = stream(model, live)
    hits = sum(p == GESTURES[t] for p, t in zip(predicted, truth.tolist()))
    print(f"live stream: {hits}/{len(predicted)} correct: {predicted}")


if __name__ == "__main__":
    main()
