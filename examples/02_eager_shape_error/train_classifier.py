"""Train a small CNN on a synthetic "stripes vs. blobs" image-classification task.

The dataset is generated on the fly (no downloads): each 28x28 grayscale image
contains a noisy pattern whose orientation/shape determines the class.  The script
trains for a few epochs with AdamW + cosine schedule and reports validation accuracy.

Usage:
    python train_classifier.py [--epochs N] [--batch-size B] [--lr LR]
"""

import argparse
import math
from dataclasses import dataclass, field

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, Dataset

SEED = 0


@dataclass
class Config:
    image_size: int = 28
    num_classes: int = 4
    channels: list = field(default_factory=lambda: [16, 32, 64])
    hidden: int = 128
    dropout: float = 0.1
    train_samples: int = 2048
    val_samples: int = 512
    batch_size: int = 64
    epochs: int = 3
    lr: float = 3e-3
    weight_decay: float = 1e-2


class SyntheticPatterns(Dataset):
    """Class 0: horizontal stripes, 1: vertical stripes, 2: diagonal, 3: centered blob."""

    def __init__(self, num_samples: int, image_size: int, seed: int):
        gen = torch.Generator().manual_seed(seed)
        self.labels = torch.randint(0, 4, (num_samples,), generator=gen)
        coords = torch.arange(image_size, dtype=torch.float32)
        yy, xx = torch.meshgrid(coords, coords, indexing="ij")
        phase = torch.rand(num_samples, generator=gen) * 2 * math.pi
        templates = torch.stack(
            [
                torch.sin(yy[None] * 0.8 + phase[:, None, None]),
                torch.sin(xx[None] * 0.8 + phase[:, None, None]),
                torch.sin((xx + yy)[None] * 0.55 + phase[:, None, None]),
                torch.exp(-((xx - image_size / 2) ** 2 + (yy - image_size / 2) ** 2) / 40.0)[None].expand(
                    num_samples, -1, -1
                ),
            ],
            dim=1,
        )
        images = templates[torch.arange(num_samples), self.labels]
        noise = 0.3 * torch.randn(images.shape, generator=gen)
        self.images = (images + noise).unsqueeze(1)

    def __len__(self):
        return len(self.labels)

    def __getitem__(self, idx):
        return self.images[idx], self.labels[idx]


def conv_block(in_ch: int, out_ch: int) -> nn.Sequential:
    return nn.Sequential(
        nn.Conv2d(in_ch, out_ch, kernel_size=3, padding=1, bias=False),
        nn.BatchNorm2d(out_ch),
        nn.ReLU(inplace=True),
        nn.MaxPool2d(2),
    )


class PatternNet(nn.Module):
    def __init__(self, cfg: Config):
        super().__init__()
        chans = [1] + cfg.channels
        self.features = nn.Sequential(*[conv_block(a, b) for a, b in zip(chans[:-1], chans[1:])])
        # two 2x2 poolings -> spatial size is image_size / 4
        flat = cfg.channels[-1] * (cfg.image_size // 4) ** 2
        self.head = nn.Sequential(
            nn.Flatten(),
            nn.Linear(flat, cfg.hidden),
            nn.ReLU(inplace=True),
            nn.Dropout(cfg.dropout),
            nn.Linear(cfg.hidden, cfg.num_classes),
        )

    def forward(self, x):
        return self.head(self.features(x))


def count_parameters(model: nn.Module) -> int:
    return sum(p.numel() for p in model.parameters() if p.requires_grad)


def train_one_epoch(model, loader, optimizer, scheduler, epoch: int) -> float:
    model.train()
    total, seen = 0.0, 0
    for step, (images, labels) in enumerate(loader):
        logits = model(images)
        loss = F.cross_entropy(logits, labels, label_smoothing=0.05)
        optimizer.zero_grad(set_to_none=True)
        loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), max_norm=1.0)
        optimizer.step()
        scheduler.step()
        total += loss.item() * images.size(0)
        seen += images.size(0)
        if step % 10 == 0:
            print(f"[train] epoch {epoch} step {step:3d} loss {loss.item():.4f}")
    return total / max(seen, 1)


@torch.no_grad()
def evaluate(model, loader) -> float:
    model.eval()
    correct = 0
    for images, labels in loader:
        correct += (model(images).argmax(dim=1) == labels).sum().item()
    return correct / len(loader.dataset)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--epochs", type=int, default=None)
    parser.add_argument("--batch-size", type=int, default=None)
    parser.add_argument("--lr", type=float, default=None)
    args = parser.parse_args()

    cfg = Config()
    for name in ("epochs", "batch_size", "lr"):
        if getattr(args, name) is not None:
            setattr(cfg, name, getattr(args, name))

    torch.manual_seed(SEED)
    train_ds = SyntheticPatterns(cfg.train_samples, cfg.image_size, seed=1)
    val_ds = SyntheticPatterns(cfg.val_samples, cfg.image_size, seed=2)
    train_loader = DataLoader(
        train_ds, batch_size=cfg.batch_size, shuffle=True, generator=torch.Generator().manual_seed(SEED)
    )
    val_loader = DataLoader(val_ds, batch_size=cfg.batch_size)

    model = PatternNet(cfg)
    print(f"[main] model has {count_parameters(model):,} trainable parameters")
    optimizer = torch.optim.AdamW(model.parameters(), lr=cfg.lr, weight_decay=cfg.weight_decay)
    scheduler = torch.optim.lr_scheduler.CosineAnnealingLR(optimizer, T_max=cfg.epochs * len(train_loader))

    for epoch in range(cfg.epochs):
        train_loss = train_one_epoch(model, train_loader, optimizer, scheduler, epoch)
        val_acc = evaluate(model, val_loader)
        print(f"[main] epoch {epoch}: train_loss={train_loss:.4f} val_acc={val_acc:.3f}")

    print("[main] done")


if __name__ == "__main__":
    main()
