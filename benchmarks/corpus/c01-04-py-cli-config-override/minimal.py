import math


def steps_per_epoch(cfg):
    size = cfg["dataset"]["train_size"]
    return math.ceil(size / cfg["schedule"]["batch_size"])


cfg = {"dataset": {"train_size": 50000}, "schedule": {"batch_size": 128}}
cfg["schedule"]["batch_size"] = None  # argparse's default for --batch-size, copied over the config
steps_per_epoch(cfg)
