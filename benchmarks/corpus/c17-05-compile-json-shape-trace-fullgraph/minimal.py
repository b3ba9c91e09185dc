import json

import torch

records = []


def forward(x):
    records.append(json.dumps({"layer": "scores", "shape": list(x.shape)}))
    return x * 2


torch.compile(forward, backend="eager", fullgraph=True)(torch.zeros(2))
