"""Monthly incident review: resolution times, SLA breaches and the mean time to resolve them.

    python incident_review.py --sla-hours 8 --month 2026-02
"""

import argparse
import logging
import statistics
from collections import Counter
from dataclasses import dataclass
from datetime import datetime

INCIDENTS = [
    # id, service, severity, opened, resolved
    ("INC-311", "checkout", "sev2", "2026-02-02 09:14", "2026-02-02 10:02"),
    ("INC-312", "search", "sev3", "2026-02-03 16:40", "2026-02-03 19:05"),
    ("INC-315", "payments", "sev1", "2026-02-06 22:10", "2026-02-08 01:30"),
    ("INC-318", "checkout", "sev3", "2026-02-11 08:00", "2026-02-11 12:45"),
    ("INC-320", "notifications", "sev3", "2026-02-13 11:25", "2026-02-16 14:10"),
    ("INC-323", "search", "sev2", "2026-02-18 14:02", "2026-02-18 14:50"),
    ("INC-327", "payments", "sev2", "2026-02-21 03:30", "2026-02-21 07:15"),
    ("INC-330", "inventory", "sev3", "2026-02-24 10:00", "2026-02-26 10:20"),
]

log = logging.getLogger("incident_review")
FMT = "%Y-%m-%d %H:%M"


@dataclass
class Incident:
    ident: str
    service: str
    severity: str
    opened: datetime
    resolved: datetime

    @property
    def minutes_to_resolve(self):
        return (self.resolved - self.opened).seconds // 60


def load(rows, month):
    incidents = [Incident(i, s, sev, datetime.strptime(o, FMT), datetime.strptime(r, FMT))
                 for i, s, sev, o, r in rows]
    return [inc for inc in incidents if inc.opened.strftime("%Y-%m") == month]


def sla_breaches(incidents, sla_hours):
    return [inc for inc in incidents if inc.minutes_to_resolve > sla_hours * 60]


def mean_time_to_resolve(incidents):
    """Mean minutes to resolve, in hours."""
    return statistics.mean(inc.minutes_to_resolve for inc in incidents) / 60


def format_hours(h):
    return f"{int(h)}h{round((h - int(h)) * 60):02d}m"


def main():
    logging.basicConfig(level=logging.INFO, format="%(levelname)s %(name)s: %(message)s")
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("--sla-hours", type=float, default=8)
    p.add_argument("--month", default="2026-02")
    args = p.parse_args()
    incidents = load(INCIDENTS, args.month)
    log.info("%d incidents in %s", len(incidents), args.month)
    by_service = Counter(inc.service for inc in incidents)
    for service, n in by_service.most_common():
        print(f"{service:<14} {n}")
    print(f"MTTR (all):      {format_hours(mean_time_to_resolve(incidents))}")
    breaches = sla_breaches(incidents, args.sla_hours)
    print(f"SLA breaches:    {len(breaches)} of {len(incidents)}")
    print(f"MTTR (breaches): {format_hours(mean_time_to_resolve(breaches))}")


if __name__ == "__main__":
    main()
