"""Train ShapeNet for a few steps on synthetic images of squares, crosses, rings and stripes."""
import argparse

import torch
import torch.nn.functional as F

from shapenet import NetConfig, ShapeNet


def make_batch(n, size, generator):
    labels = torch.randint(0, 4, (n,), generator=generator)
    images = torch.rand(n, 3, size, size, generator=generator) * 0.2
    mid, r = size // 2, size // 4
    for img, label in zip(images, labels.tolist()):
        if label == 0:
            img[:, mid - r:mid + r, mid - r:mid + r] += 0.8
        elif label == 1:
            img[:, mid - 1:mid + 1, :] += 0.8
            img[:, :, mid - 1:mid + 1] += 0.8
        elif label == 2:
            img[:, mid - r:mid + r, mid - r] += 0.8
            img[:, mid - r:mid + r, mid + r] += 0.8
        else:
            img[:, ::4, :] += 0.8
    return images, labels


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--steps", type=int, default=20)
    parser.add_argument("--batch", type=int, default=16)
    parser.add_argument("--lr", type=float, default=1e-3)
    args = parser.parse_args()

    torch.manual_seed(0)
    gen = torch.Generator().manual_seed(0)
    cfg = NetConfig()
    model = ShapeNet(cfg)
    print(f"ShapeNet: {sum(p.numel() for p in model.parameters())} parameters, flat={cfg.flat_features}")
    opt = torch.optim.AdamW(model.parameters(), lr=args.lr)

    for step in range(args.steps):
        images, labels = make_batch(args.batch, cfg.image_size, gen)
        loss = F.cross_entropy(model(images), labels)
        opt.zero_grad()
        loss.backward()
        opt.step()
        if step % 5 == 0:
            print(f"step {step}: loss {loss.item():.3f}")

    images, labels = make_batch(64, cfg.image_size, gen)
    model.eval()
    with torch.no_grad():
        acc = (model(images).argmax(1) == labels).float().mean().item()
    print(f"accuracy on a fresh batch: {acc:.2f}")


if __name__ == "__main__":
    main()
