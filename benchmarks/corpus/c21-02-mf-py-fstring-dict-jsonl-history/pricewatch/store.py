import json
from pathlib import Path


class SnapshotStore:
    """Append-only history: one line per snapshot in ``<root>/<shop>.jsonl``."""

    def __init__(self, root: Path):
        self.root = root
        self.root.mkdir(parents=True, exist_ok=True)

    def path(self, shop: str) -> Path:
        return self.root / f"{shop}.jsonl"

    def append_snapshot(self, shop: str, snapshot: dict) -> None:
        with open(self.path(shop), "a", encoding="utf-8") as fh:
            fh.write(f"{snapshot}\n")

    def write_meta(self, meta: dict) -> None:
        (self.root / "meta.json").write_text(json.dumps(meta, indent=2), encoding="utf-8")
