"""Physics-informed network for the 1-D heat equation u_t = alpha * u_xx on [0, 1] x [0, 1]."""
import argparse
import logging
import math
from dataclasses import dataclass

import torch
from torch import nn

log = logging.getLogger("pinn")


@dataclass
class Config:
    alpha: float = 0.1
    hidden: int = 32
    depth: int = 3
    n_collocation: int = 256
    n_boundary: int = 64
    steps: int = 3
    lr: float = 1e-3


class HeatPINN(nn.Module):
    def __init__(self, hidden, depth):
        super().__init__()
        layers, width = [], 2
        for _ in range(depth):
            layers += [nn.Linear(width, hidden), nn.Tanh()]
            width = hidden
        self.net = nn.Sequential(*layers, nn.Linear(width, 1))

    def forward(self, x, t):
        return self.net(torch.stack([x, t], dim=-1)).squeeze(-1)


def pde_residual(model, x, t, alpha):
    u = model(x, t)
    u_x, u_t = torch.autograd.grad(u.sum(), (x, t), create_graph=True)
    (u_xx,) = torch.autograd.grad(u_x.sum(), x, create_graph=True)
    return u_t - alpha * u_xx


def physics_loss(model, x, t, x0, alpha):
    residual = pde_residual(model, x, t, alpha)
    u0 = model(x0, torch.zeros_like(x0))
    initial = u0 - torch.sin(math.pi * x0)
    return residual.pow(2).mean() + initial.pow(2).mean()


def sample_points(cfg, gen):
    x = torch.rand(cfg.n_collocation, generator=gen).requires_grad_()
    t = torch.rand(cfg.n_collocation, generator=gen).requires_grad_()
    return x, t, torch.rand(cfg.n_boundary, generator=gen)


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--steps", type=int, default=None)
    parser.add_argument("--no-compile", action="store_true")
    args = parser.parse_args()
    logging.basicConfig(level=logging.INFO, format="%(message)s")
    cfg = Config()
    if args.steps is not None:
        cfg.steps = args.steps
    torch.manual_seed(0)
    gen = torch.Generator().manual_seed(0)
    model = HeatPINN(cfg.hidden, cfg.depth)
    opt = torch.optim.Adam(model.parameters(), lr=cfg.lr)
    loss_fn = physics_loss if args.no_compile else torch.compile(physics_loss, backend="eager", fullgraph=True)
    for step in range(cfg.steps):
        x, t, x0 = sample_points(cfg, gen)
        loss = loss_fn(model, x, t, x0, cfg.alpha)
        opt.zero_grad()
        loss.backward()
        opt.step()
        log.info("step %d physics loss %.5f", step, loss.item())


if __name__ == "__main__":
    main()
