import json
import tempfile
from pathlib import Path


class SnapshotStore:
    def __init__(self, path):
        self.path = path

    def append_snapshot(self, snapshot):
        with open(self.path, "a", encoding="utf-8") as fh:
            fh.write(f"{snapshot}\n")


def load_history(path):
    with open(path, encoding="utf-8") as fh:
        for line in fh:
            snap = json.loads(line)
    return snap


with tempfile.TemporaryDirectory() as tmp:
    store = SnapshotStore(Path(tmp) / "brewgear.jsonl")
    store.append_snapshot({"sku": "kettle-ek2", "price": 39.9})  # an f-string of a dict is its repr, not JSON
    load_history(store.path)
