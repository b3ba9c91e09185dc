import torch
from torch import nn

WRAPPER_PREFIXES = ("module.",)


def strip_prefix(state):
    out = {}
    for key, value in state.items():
        for prefix in WRAPPER_PREFIXES:
            if key.startswith(prefix):
                key = key[len(prefix):]
        out[key] = value
    return out


class TabularNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.head = nn.Linear(2, 2)


state = torch.compile(TabularNet()).state_dict()
TabularNet().load_state_dict(strip_prefix(state))
