"""Validate dataset shards in worker processes and collect their JSON-lines reports.

Each worker is this script run with --worker SHARD: it checks every record of its shard and prints
one JSON line per record. The parent starts one worker per shard, waits for it, then parses its
output.

    python shard_runner.py [--shards 2] [--records 3000]
"""
import argparse
import json
import logging
import subprocess
import sys
import zlib

log = logging.getLogger("shard_runner")


def make_record(shard: int, i: int) -> dict:
    payload = f"shard{shard}-record{i}".encode()
    return {"shard": shard, "index": i, "crc": zlib.crc32(payload), "size": len(payload)}


def worker(shard: int, records: int) -> int:
    bad = 0
    for i in range(records):
        rec = make_record(shard, i)
        ok = rec["crc"] % 97 != 0
        bad += not ok
        print(json.dumps({"shard": shard, "index": i, "ok": ok, "crc": rec["crc"]}))
    return 1 if bad > records // 10 else 0


def run_shard(shard: int, records: int) -> list[dict]:
    cmd = [sys.executable, __file__, "--worker", str(shard), "--records", str(records)]
    log.info("starting worker for shard %d", shard)
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    code = proc.wait()
    out, err = proc.stdout.read(), proc.stderr.read()
    if code != 0:
        raise RuntimeError(f"worker {shard} failed ({code}): {err.strip()[-200:]}")
    return [json.loads(line) for line in out.splitlines() if line.strip()]


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--shards", type=int, default=2)
    p.add_argument("--records", type=int, default=3000)
    p.add_argument("--worker", type=int, default=None, help=argparse.SUPPRESS)
    args = p.parse_args(argv)
    if args.worker is not None:
        return worker(args.worker, args.records)
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(message)s")
    reports = []
    for shard in range(args.shards):
        reports.extend(run_shard(shard, args.records))
    bad = [r for r in reports if not r["ok"]]
    log.info("%d records checked, %d bad", len(reports), len(bad))
    return 0


if __name__ == "__main__":
    sys.exit(main())
