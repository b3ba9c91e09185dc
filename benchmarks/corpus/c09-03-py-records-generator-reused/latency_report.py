"""Summarize request latencies per service from the gateway's access log."""
import argparse
import io
import logging
import statistics
from collections import defaultdict
from dataclasses import dataclass

log = logging.getLogger("latency")

ACCESS_LOG = """\
# gateway access log, format: ts service method path status ms
1732700000 billing GET /invoices 200 41
1732700001 search GET /q 200 118
1732700001 search GET /q 200 97
1732700002 billing POST /invoices 201 230
1732700003 auth POST /token 200 12
1732700004 search GET /q 504 3001
1732700004 search GET /q 2
1732700005 auth POST /token 401 9
1732700006 billing GET /invoices/77 200 38
"""


@dataclass
class Request:
    ts: int
    service: str
    method: str
    path: str
    status: int
    ms: int


def parse_records(stream):
    """Yield one Request per well-formed line; comments and damaged lines are skipped."""
    for lineno, line in enumerate(stream, 1):
        if not line.strip() or line.startswith("#"):
            continue
        parts = line.split()
        if len(parts) != 6:
            log.warning("line %d: skipped (%d fields)", lineno, len(parts))
            continue
        ts, service, method, path, status, ms = parts
        yield Request(int(ts), service, method, path, int(status), int(ms))


def per_service(records):
    out = defaultdict(list)
    for r in records:
        out[r.service].append(r.ms)
    return out


def summarize(records, slow_ms):
    by_service = per_service(records)
    for service, times in sorted(by_service.items()):
        log.info("%-8s n=%-3d median %6.1f ms  max %5d ms", service, len(times), statistics.median(times), max(times))
    slowest = max(records, key=lambda r: r.ms)
    errors = [r for r in records if r.status >= 500]
    return {"services": len(by_service), "slowest": f"{slowest.service} {slowest.path} {slowest.ms} ms",
            "errors": len(errors), "slow": sum(r.ms > slow_ms for r in records)}


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--slow-ms", type=int, default=1000)
    args = parser.parse_args()
    logging.basicConfig(level=logging.INFO, format="%(message)s")
    records = parse_records(io.StringIO(ACCESS_LOG))
    summary = summarize(records, args.slow_ms)
    for key, value in summary.items():
        print(f"{key:>9}: {value}")


if __name__ == "__main__":
    main()
