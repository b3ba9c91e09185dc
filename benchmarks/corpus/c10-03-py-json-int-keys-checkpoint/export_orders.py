"""Export new orders shard by shard, checkpointing so an interrupted run can resume."""
import argparse
import json
import logging
from dataclasses import asdict, dataclass, field

log = logging.getLogger("export_orders")

# stands in for the job's key-value store (the real job writes to the scheduler's state API)
STATE_STORE = {}

# shard id -> order ids on that shard, oldest first
ORDERS = {shard: list(range(shard * 1000, shard * 1000 + size)) for shard, size in [(1, 7), (2, 3), (3, 5)]}


@dataclass
class Checkpoint:
    run_id: str
    pending: list = field(default_factory=list)  # shard ids not finished yet
    cursors: dict = field(default_factory=dict)  # shard id -> last exported order id


def save_checkpoint(cp):
    STATE_STORE[cp.run_id] = json.dumps(asdict(cp))


def load_checkpoint(run_id):
    raw = json.loads(STATE_STORE[run_id])
    return Checkpoint(raw["run_id"], raw["pending"], raw["cursors"])


def export_batch(shard, after, batch_size):
    """Send the next batch of orders after ``after``; returns the last exported id (or None: shard done)."""
    todo = [o for o in ORDERS[shard] if o > after][:batch_size]
    if not todo:
        return None
    log.info("shard %d: exported %d order(s) %d..%d", shard, len(todo), todo[0], todo[-1])
    return todo[-1]


def run(cp, batch_size, max_batches=None):
    """Export until every shard is done, or stop after ``max_batches`` (a maintenance window)."""
    sent = 0
    while cp.pending:
        shard = cp.pending[0]
        last = export_batch(shard, cp.cursors[shard], batch_size)
        if last is None:
            cp.pending.pop(0)
        else:
            cp.cursors[shard] = last
        save_checkpoint(cp)
        sent += 1
        if max_batches is not None and sent >= max_batches:
            log.info("window over after %d batch(es); %d shard(s) pending", sent, len(cp.pending))
            return False
    return True


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--run-id", default="orders-nightly")
    parser.add_argument("--batch-size", type=int, default=4)
    parser.add_argument("--window", type=int, default=2, help="batches per maintenance window")
    args = parser.parse_args()
    logging.basicConfig(level=logging.INFO, format="%(message)s")
    shards = sorted(ORDERS)
    cp = Checkpoint(args.run_id, list(shards), {shard: -1 for shard in shards})
    done = run(cp, args.batch_size, args.window)
    while not done:  # the next window: resume from the stored checkpoint
        cp = load_checkpoint(args.run_id)
        done = run(cp, args.batch_size, args.window)
    print(f"{args.run_id}: all {len(shards)} shards exported")


if __name__ == "__main__":
    main()
