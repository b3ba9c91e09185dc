import logging

import torch

log = logging.getLogger(__name__)


def load_tickets(cfg, seed=0):
    """Stand-in for the ticket export: features and intent ids, oldest ticket first.

    The "cancel_order" intent only exists since the last release, so it shows up in the newest tickets only.
    """
    g = torch.Generator().manual_seed(seed)
    n_old = int(cfg.n_tickets * 0.9)
    old = torch.randint(0, len(cfg.intents) - 1, (n_old,), generator=g)
    new = torch.randint(0, len(cfg.intents), (cfg.n_tickets - n_old,), generator=g)
    new[0] = len(cfg.intents) - 1
    labels = torch.cat([old, new])
    centers = torch.randn(len(cfg.intents), cfg.n_features, generator=g)
    features = centers[labels] + 0.5 * torch.randn(cfg.n_tickets, cfg.n_features, generator=g)
    return features, labels


def split_by_time(features, labels, val_fraction):
    """Validate on the newest tickets, as the queue router will see them."""
    cut = int(len(labels) * (1 - val_fraction))
    return (features[:cut], labels[:cut]), (features[cut:], labels[cut:])


def class_weights(labels, n_classes):
    """Inverse-frequency weights, so rare intents are not drowned by billing questions."""
    counts = torch.bincount(labels).float()
    weights = counts.sum() / (n_classes * counts.clamp(min=1))
    log.info("class weights: %s", [round(w, 2) for w in weights.tolist()])
    return weights
