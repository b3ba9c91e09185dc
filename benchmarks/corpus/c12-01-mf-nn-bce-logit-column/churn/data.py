import torch


def make_accounts(cfg, seed=0):
    """Stand-in for the account snapshot: (plan id, numeric features, churned) per account."""
    g = torch.Generator().manual_seed(seed)
    plans = torch.randint(0, cfg.n_plans, (cfg.n_accounts,), generator=g)
    numeric = torch.randn(cfg.n_accounts, cfg.n_numeric, generator=g)
    score = 0.8 * numeric[:, 2] - 0.6 * numeric[:, 0] + 0.3 * (plans == 0).float()
    churned = (score > 0.5).float()
    return list(zip(plans, numeric, churned))


def split(accounts, val_fraction):
    n_val = int(len(accounts) * val_fraction)
    return accounts[n_val:], accounts[:n_val]


def batches(accounts, batch_size):
    for start in range(0, len(accounts), batch_size):
        chunk = accounts[start:start + batch_size]
        plans = torch.stack([p for p, _, _ in chunk])
        numeric = torch.stack([x for _, x, _ in chunk])
        labels = torch.stack([y for _, _, y in chunk])
        yield plans, numeric, labels
