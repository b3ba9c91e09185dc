"""Build the weekly ticket report: load tickets, aggregate per team, write report.json."""
import argparse
import logging
import sys

from reporting.aggregate import summarize_teams
from reporting.export import write_report
from reporting.tickets import load_tickets

log = logging.getLogger("report")

TICKETS = """id,team,priority,tags,hours
T-101,infra,high,network;outage,5.5
T-102,infra,low,cleanup,1.0
T-103,ml,high,training;gpu,8.0
T-104,ml,medium,gpu,2.5
T-105,web,low,css,0.5
T-106,web,high,outage;login,4.0
"""


def parse_args(argv):
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--out", default="-", help="where to write the JSON report (- for stdout)")
    parser.add_argument("--min-hours", type=float, default=0.0)
    parser.add_argument("--verbose", action="store_true")
    return parser.parse_args(argv)


def main(argv=None):
    args = parse_args(argv)
    logging.basicConfig(level=logging.DEBUG if args.verbose else logging.WARNING)
    tickets = [t for t in load_tickets(TICKETS) if t["hours"] >= args.min_hours]
    log.info("%d tickets after filtering", len(tickets))
    teams = summarize_teams(tickets)
    for name, team in sorted(teams.items()):
        log.info("%s: %d tickets, %.1f h", name, team["count"], team["hours"])
    write_report({"teams": teams, "total_hours": sum(t["hours"] for t in tickets)}, args.out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
