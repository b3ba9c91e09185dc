"""Experiment configuration: defaults, user overrides and derived values."""
import copy

DEFAULTS = {
    "image_size": 32,
    "patch": 8,
    "embed_dim": 64,
    "depth": 2,
    "heads": 4,
    "classes": 10,
    "lr": 3e-4,
    "batch_size": 8,
}


def derive(cfg):
    """Fill in the values that follow from others."""
    out = dict(cfg)
    out["norm_dim"] = DEFAULTS["embed_dim"]
    out["head_dim"] = out["embed_dim"] // out["heads"]
    out["num_patches"] = (out["image_size"] // out["patch"]) ** 2
    return out


def validate(cfg):
    if cfg["embed_dim"] % cfg["heads"]:
        raise ValueError("embed_dim must be divisible by heads")
    if cfg["image_size"] % cfg["patch"]:
        raise ValueError("image_size must be a multiple of patch")
    return cfg


def load_config(overrides=None):
    cfg = copy.deepcopy(DEFAULTS)
    cfg.update(overrides or {})
    return validate(derive(cfg))
