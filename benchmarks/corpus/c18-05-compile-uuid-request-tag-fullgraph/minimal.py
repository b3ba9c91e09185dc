import uuid

import torch


def tag(t):
    entries.append(uuid.uuid4().hex[:12])
    return t


entries = []
forward = torch.compile(lambda x: tag(x * 2), backend="eager", fullgraph=True)
forward(torch.ones(2))
