"""Summarize web-server access logs: request counts, error rates and latency percentiles.

The logs are synthesized in memory (a realistic mix of endpoints, status codes and
latencies coming from several hosts), parsed line by line and aggregated per endpoint
and per hour.  No files are read or written.

Usage:
    python analyze_access_logs.py [--records N] [--seed S] [--top K]
"""

import argparse
import io
import random
import re
import statistics
from collections import Counter, defaultdict
from dataclasses import dataclass
from datetime import datetime, timedelta

TIMESTAMP_FORMAT = "%Y-%m-%d %H:%M:%S"
START_TIME = datetime(2024, 3, 17, 0, 0, 0)
HOSTS = ["web-01", "web-02", "web-03", "web-04"]
ENDPOINTS = {
    "GET /api/v1/items": (35.0, 8.0),
    "GET /api/v1/items/{id}": (12.0, 3.0),
    "POST /api/v1/orders": (120.0, 40.0),
    "GET /api/v1/users/me": (8.0, 2.0),
    "GET /healthz": (1.0, 0.2),
}
STATUS_WEIGHTS = {200: 0.93, 201: 0.02, 404: 0.03, 500: 0.015, 503: 0.005}
LINE_RE = re.compile(
    r"^(?P<ts>\S+(?: \S+)?) \| (?P<method>[A-Z]+) (?P<path>\S+) \| (?P<status>\d{3}) \| "
    r"(?P<latency>[0-9.]+)ms \| host=(?P<host>\S+)$"
)


@dataclass
class Request:
    timestamp: datetime
    method: str
    path: str
    status: int
    latency_ms: float
    host: str

    @property
    def endpoint(self) -> str:
        return f"{self.method} {self.path}"

    @property
    def is_error(self) -> bool:
        return self.status >= 500


def synthesize_logs(num_records: int, seed: int) -> io.StringIO:
    """Generate a deterministic access log; one host has a misconfigured logger."""
    rng = random.Random(seed)
    statuses, weights = zip(*STATUS_WEIGHTS.items())
    buf = io.StringIO()
    now = START_TIME
    for i in range(num_records):
        now += timedelta(seconds=rng.randint(0, 3))
        endpoint = rng.choice(list(ENDPOINTS))
        mean, std = ENDPOINTS[endpoint]
        latency = max(0.1, rng.gauss(mean, std))
        status = rng.choices(statuses, weights)[0]
        host = rng.choice(HOSTS)
        stamp = now.strftime(TIMESTAMP_FORMAT)
        if i == 7341:
            # a freshly provisioned batch host logs ISO-8601 timestamps
            host = "batch-01"
            stamp = now.strftime("%Y-%m-%dT%H:%M:%SZ")
        buf.write(f"{stamp} | {endpoint} | {status} | {latency:.1f}ms | host={host}\n")
    buf.seek(0)
    return buf


def parse_line(line: str) -> Request:
    match = LINE_RE.match(line.strip())
    if match is None:
        raise ValueError(f"unparseable log line: {line!r}")
    return Request(
        timestamp=datetime.strptime(match["ts"], TIMESTAMP_FORMAT),
        method=match["method"],
        path=match["path"],
        status=int(match["status"]),
        latency_ms=float(match["latency"]),
        host=match["host"],
    )


def parse_logs(stream) -> list:
    requests = []
    for lineno, line in enumerate(stream, start=1):
        if not line.strip() or line.startswith("#"):
            continue
        requests.append(parse_line(line))
        if lineno % 5000 == 0:
            print(f"[parse] {lineno} lines parsed")
    return requests


def percentile(values, q: float) -> float:
    ordered = sorted(values)
    if not ordered:
        return float("nan")
    index = min(len(ordered) - 1, int(round(q * (len(ordered) - 1))))
    return ordered[index]


def summarize_endpoints(requests) -> dict:
    by_endpoint = defaultdict(list)
    for req in requests:
        by_endpoint[req.endpoint].append(req)
    summary = {}
    for endpoint, reqs in by_endpoint.items():
        latencies = [r.latency_ms for r in reqs]
        summary[endpoint] = {
            "count": len(reqs),
            "error_rate": sum(r.is_error for r in reqs) / len(reqs),
            "mean_ms": statistics.fmean(latencies),
            "p50_ms": percentile(latencies, 0.50),
            "p99_ms": percentile(latencies, 0.99),
        }
    return summary


def requests_per_hour(requests) -> Counter:
    return Counter(req.timestamp.replace(minute=0, second=0) for req in requests)


def print_report(summary: dict, hourly: Counter, top: int) -> None:
    print(f"{'endpoint':<28}{'count':>8}{'err%':>8}{'mean':>9}{'p50':>9}{'p99':>9}")
    ranked = sorted(summary.items(), key=lambda kv: kv[1]["count"], reverse=True)
    for endpoint, s in ranked[:top]:
        print(
            f"{endpoint:<28}{s['count']:>8}{100 * s['error_rate']:>7.2f}%"
            f"{s['mean_ms']:>9.1f}{s['p50_ms']:>9.1f}{s['p99_ms']:>9.1f}"
        )
    busiest, count = hourly.most_common(1)[0]
    print(f"busiest hour: {busiest:%Y-%m-%d %H:00} with {count} requests")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--records", type=int, default=12000)
    parser.add_argument("--seed", type=int, default=1234)
    parser.add_argument("--top", type=int, default=5)
    args = parser.parse_args()

    print(f"[main] synthesizing {args.records} log records (seed={args.seed})")
    stream = synthesize_logs(args.records, args.seed)
    requests = parse_logs(stream)
    print(f"[main] parsed {len(requests)} requests")
    summary = summarize_endpoints(requests)
    hourly = requests_per_hour(requests)
    print_report(summary, hourly, args.top)


if __name__ == "__main__":
    main()
