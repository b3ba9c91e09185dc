"""Train a small ViT on synthetic images for a few steps (project entry point)."""
import torch
import torch.nn.functional as F

from models import build_vit
from utils.config import load_config
from utils.data import synthetic_loader


def train(cfg, steps=3):
    model = build_vit(cfg)
    opt = torch.optim.AdamW(model.parameters(), lr=cfg["lr"])
    for step, (images, labels) in enumerate(synthetic_loader(cfg, steps)):
        logits = model(images)
        loss = F.cross_entropy(logits, labels)
        opt.zero_grad()
        loss.backward()
        opt.step()
        print(f"step {step}: loss {loss.item():.4f}")


if __name__ == "__main__":
    torch.manual_seed(0)
    train(load_config({"embed_dim": 48, "heads": 4}))
