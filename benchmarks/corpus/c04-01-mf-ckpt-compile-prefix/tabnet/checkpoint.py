import io
import logging

import torch

from .model import TabularNet

log = logging.getLogger(__name__)

# prefixes that wrappers (DistributedDataParallel, ...) put in front of the parameter names
WRAPPER_PREFIXES = ("module.",)


def strip_prefix(state):
    out = {}
    for key, value in state.items():
        for prefix in WRAPPER_PREFIXES:
            if key.startswith(prefix):
                key = key[len(prefix):]
        out[key] = value
    return out


def save_checkpoint(model, step, buffer=None):
    buffer = buffer if buffer is not None else io.BytesIO()
    torch.save({"step": step, "model": model.state_dict()}, buffer)
    log.info("saved checkpoint at step %d (%d bytes)", step, buffer.tell())
    buffer.seek(0)
    return buffer


def load_for_eval(buffer, cfg):
    ckpt = torch.load(buffer, weights_only=True)
    model = TabularNet(cfg)
    model.load_state_dict(strip_prefix(ckpt["model"]))
    model.eval()
    log.info("loaded checkpoint of step %d", ckpt["step"])
    return model
