import logging

import torch
from torch.utils.data import DataLoader, TensorDataset, random_split

log = logging.getLogger(__name__)


def make_customers(n, n_plans, seed):
    """Synthetic subscription records: plan id, five numeric usage features, churned or not."""
    g = torch.Generator().manual_seed(seed)
    plan = torch.randint(0, n_plans, (n,), generator=g)
    tenure = torch.rand(n, generator=g) * 48  # months
    monthly = 9.99 + plan.float() * 5 + torch.randn(n, generator=g)
    tickets = torch.poisson(torch.full((n,), 1.5), generator=g)
    logins = torch.randint(0, 30, (n,), generator=g).float()
    late = torch.bernoulli(torch.full((n,), 0.1), generator=g)
    numeric = torch.stack([tenure / 48, monthly / 30, tickets / 5, logins / 30, late], dim=1)
    score = 1.5 * late + 0.4 * tickets - 0.05 * tenure - 0.03 * logins + 0.2 * (plan == 0).float()
    churned = (torch.sigmoid(score + 0.3 * torch.randn(n, generator=g)) > 0.5).float()
    log.info("generated %d customers, churn rate %.2f", n, churned.mean().item())
    return TensorDataset(plan, numeric, churned)


def split_loaders(dataset, batch_size, seed):
    n_val = len(dataset) // 5
    train, val = random_split(dataset, [len(dataset) - n_val, n_val],
                              generator=torch.Generator().manual_seed(seed))
    return (DataLoader(train, batch_size=batch_size, shuffle=True),
            DataLoader(val, batch_size=batch_size))
