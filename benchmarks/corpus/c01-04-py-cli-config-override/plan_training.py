"""Plan a training run: read the experiment config, apply command-line overrides, print the schedule.

Usage: python plan_training.py [--epochs N] [--batch-size N] [--lr LR] [--warmup-frac F]
"""
import argparse
import json
import math

EXPERIMENT = """
{
  "name": "resnet18-cifar",
  "dataset": {"name": "cifar10", "train_size": 50000, "val_size": 10000},
  "optim": {"name": "sgd", "lr": 0.1, "momentum": 0.9, "weight_decay": 5e-4},
  "schedule": {"epochs": 30, "batch_size": 128, "warmup_frac": 0.05, "decay": "cosine"},
  "logging": {"every": 50, "dir": "runs/"}
}
"""

OVERRIDE_KEYS = {
    "epochs": ("schedule", "epochs"),
    "batch_size": ("schedule", "batch_size"),
    "warmup_frac": ("schedule", "warmup_frac"),
    "lr": ("optim", "lr"),
}


def parse_args(argv=None):
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--epochs", type=int)
    parser.add_argument("--batch-size", type=int)
    parser.add_argument("--lr", type=float)
    parser.add_argument("--warmup-frac", type=float)
    parser.add_argument("--dry-run", action="store_true")
    return parser.parse_args(argv)


def load_experiment(text):
    cfg = json.loads(text)
    for section in ("dataset", "optim", "schedule"):
        if section not in cfg:
            raise KeyError(f"config lacks the section {section!r}")
    return cfg


def apply_overrides(cfg, args):
    """Copy command-line values into the nested config (argparse leaves unset options at None)."""
    merged = json.loads(json.dumps(cfg))
    for arg_name, (section, key) in OVERRIDE_KEYS.items():
        value = getattr(args, arg_name)
        merged[section][key] = value
    return merged


def steps_per_epoch(cfg):
    size = cfg["dataset"]["train_size"]
    return math.ceil(size / cfg["schedule"]["batch_size"])


def lr_at(step, total, warmup, base_lr, decay):
    if step < warmup:
        return base_lr * (step + 1) / warmup
    progress = (step - warmup) / max(1, total - warmup)
    if decay == "cosine":
        return 0.5 * base_lr * (1 + math.cos(math.pi * progress))
    return base_lr * (1 - progress)


def plan(cfg):
    sched = cfg["schedule"]
    per_epoch = steps_per_epoch(cfg)
    total_steps = sched["epochs"] * per_epoch
    warmup = int(total_steps * sched["warmup_frac"])
    milestones = {}
    for frac in (0.0, 0.25, 0.5, 0.75, 1.0):
        step = min(total_steps - 1, int(frac * total_steps))
        milestones[step] = lr_at(step, total_steps, warmup, cfg["optim"]["lr"], sched["decay"])
    return {"steps_per_epoch": per_epoch, "total_steps": total_steps, "warmup": warmup,
            "milestones": milestones}


def report(cfg, summary):
    print(f"experiment {cfg['name']}: {summary['total_steps']} steps "
          f"({summary['steps_per_epoch']} per epoch), warmup {summary['warmup']}")
    for step, lr in sorted(summary["milestones"].items()):
        print(f"  step {step:>6}: lr {lr:.5f}")


def main(argv=None):
    args = parse_args(argv)
    cfg = apply_overrides(load_experiment(EXPERIMENT), args)
    summary = plan(cfg)
    report(cfg, summary)
    if args.dry_run:
        print("dry run: nothing launched")


if __name__ == "__main__":
    main(["--lr", "0.05"])
