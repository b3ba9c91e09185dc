"""Requests per country from an access log: parse -> enrich -> aggregate, one thread per stage."""

import argparse
import ipaddress
import queue
import re
import threading
from collections import Counter

ACCESS_LOG = """\
203.0.113.7 - - [27/Nov/2026:10:01:02 +0000] "GET /api/v2/items?page=1 HTTP/1.1" 200 5120
198.51.100.23 - - [27/Nov/2026:10:01:03 +0000] "GET /static/app.js HTTP/1.1" 304 0
192.0.2.41 - - [27/Nov/2026:10:01:03 +0000] "POST /api/v2/cart HTTP/1.1" 201 311
203.0.113.9 - - [27/Nov/2026:10:01:05 +0000] "GET /api/v2/items?page=2 HTTP/1.1" 200 4987
10.4.0.12 - - [27/Nov/2026:10:01:06 +0000] "GET /healthz HTTP/1.1" 200 2
198.51.100.77 - - [27/Nov/2026:10:01:08 +0000] "GET /api/v2/items/8812 HTTP/1.1" 404 97
"""

LINE = re.compile(r'(?P<ip>\S+) \S+ \S+ \[(?P<ts>[^\]]+)\] "(?P<method>\S+) (?P<path>\S+) [^"]*" '
                  r'(?P<status>\d{3}) (?P<size>\d+)')

GEO_PREFIXES = {
    "203.0.113.0/24": "AU",
    "198.51.100.0/24": "DE",
    "192.0.2.0/24": "BR",
    "10.0.0.0/8": "internal",
}

STOP = object()


def parse_stage(lines, out_q):
    for line in lines:
        m = LINE.match(line)
        if m:
            out_q.put(m.groupdict())
    out_q.put(STOP)


def enrich_stage(in_q, out_q, networks):
    while True:
        rec = in_q.get()
        if rec is STOP:
            break
        addr = ipaddress.ip_address(rec["ip"])
        rec["country"] = next((cc for net, cc in networks if addr in net), "unknown")
        out_q.put(rec)


def collect(in_q):
    by_country, errors = Counter(), Counter()
    while True:
        rec = in_q.get()
        if rec is STOP:
            return by_country, errors
        by_country[rec["country"]] += 1
        if rec["status"].startswith(("4", "5")):
            errors[rec["country"]] += 1


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--include-internal", action="store_true")
    args = p.parse_args()
    networks = [(ipaddress.ip_network(net), cc) for net, cc in GEO_PREFIXES.items()]
    parsed_q, enriched_q = queue.Queue(maxsize=100), queue.Queue(maxsize=100)
    workers = [
        threading.Thread(target=parse_stage, args=(ACCESS_LOG.splitlines(), parsed_q), name="parse"),
        threading.Thread(target=enrich_stage, args=(parsed_q, enriched_q, networks), name="enrich"),
    ]
    for t in workers:
        t.start()
    by_country, errors = collect(enriched_q)
    for t in workers:
        t.join()
    if not args.include_internal:
        by_country.pop("internal", None)
    for cc, n in by_country.most_common():
        print(f"{cc:>8} {n:4d} requests  {errors[cc]:3d} errors")


if __name__ == "__main__":
    main()
