import io
from types import SimpleNamespace

ACCESS_LOG = "billing 41\nsearch 118\n"


def parse_records(stream):
    for line in stream:
        service, ms = line.split()
        yield SimpleNamespace(service=service, ms=int(ms))


def summarize(records):
    by_service = {r.service: r.ms for r in records}
    slowest = max(records, key=lambda r: r.ms)
    return by_service, slowest


def main():
    records = parse_records(io.StringIO(ACCESS_LOG))
    summarize(records)


main()
