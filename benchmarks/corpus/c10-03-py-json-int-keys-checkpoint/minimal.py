import json
from dataclasses import asdict, dataclass, field

STATE_STORE = {}


@dataclass
class Checkpoint:
    run_id: str
    pending: list = field(default_factory=list)
    cursors: dict = field(default_factory=dict)


def load_checkpoint(run_id):
    raw = json.loads(STATE_STORE[run_id])
    return Checkpoint(raw["run_id"], raw["pending"], raw["cursors"])


def export_batch(shard, after, batch_size):
    return after


STATE_STORE["nightly"] = json.dumps(asdict(Checkpoint("nightly", [1], {1: 1006})))
cp = load_checkpoint("nightly")
batch_size = 4
shard = cp.pending[0]
last = export_batch(shard, cp.cursors[shard], batch_size)
